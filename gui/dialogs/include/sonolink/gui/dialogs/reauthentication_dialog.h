// ReauthenticationDialog: what an electronic signature or an override asks of the station user
// (21 CFR Part 11): a statement (the signature's meaning, or the override's reason) and their
// password, shown with the user it signs as. OK stays disabled until both are given; the password
// is never shown and is wiped from the field once read. Thread contract: GUI thread only.
#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace sonolink::gui {

class ReauthenticationDialog : public QDialog {
    Q_OBJECT
public:
    // statementLabel: "Meaning" or "Reason"; choices: offered statements (editable).
    ReauthenticationDialog(const QString& title, const QString& explanation, const QString& statementLabel, const QStringList& choices, const QString& user,
                           QWidget* parent = nullptr);

    [[nodiscard]] QString statement() const;
    // The password, and the field cleared.
    [[nodiscard]] QString takePassword();

private:
    void updateOk();

    QComboBox* statement_;
    QLineEdit* password_;
    QPushButton* ok_;
};

}  // namespace sonolink::gui
