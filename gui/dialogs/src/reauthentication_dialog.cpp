#include "sonolink/gui/dialogs/reauthentication_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sonolink::gui {

ReauthenticationDialog::ReauthenticationDialog(const QString& title, const QString& explanation, const QString& statementLabel, const QStringList& choices,
                                               const QString& user, QWidget* parent)
    : QDialog(parent), statement_(new QComboBox), password_(new QLineEdit) {
    setObjectName("reauthenticationDialog");
    setWindowTitle(title);
    auto* layout = new QVBoxLayout(this);
    auto* why = new QLabel(explanation);
    why->setWordWrap(true);
    layout->addWidget(why);
    auto* form = new QFormLayout;
    form->addRow(tr("User"), new QLabel(user));
    statement_->setObjectName("statement");
    statement_->setEditable(true);
    statement_->addItems(choices);
    statement_->setCurrentText(choices.isEmpty() ? QString() : choices.front());
    statement_->setMinimumWidth(360);
    form->addRow(statementLabel, statement_);
    password_->setObjectName("password");
    password_->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Password"), password_);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setObjectName("okButton");
    ok_->setText(title);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(statement_, &QComboBox::currentTextChanged, this, &ReauthenticationDialog::updateOk);
    connect(password_, &QLineEdit::textChanged, this, &ReauthenticationDialog::updateOk);
    updateOk();
    password_->setFocus();
}

QString ReauthenticationDialog::statement() const { return statement_->currentText().trimmed(); }

QString ReauthenticationDialog::takePassword() {
    auto password = password_->text();
    password_->clear();
    return password;
}

void ReauthenticationDialog::updateOk() { ok_->setEnabled(!statement().isEmpty() && !password_->text().isEmpty()); }

}  // namespace sonolink::gui
