#include "sonolink/gui/dialogs/settings_dialog.h"

#include "probe_tab.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sonolink::gui {
namespace {

enum NodeColumn { kName, kAeTitle, kHost, kPort, kTls, kColumns };

QLineEdit* edit(const char* objectName, const QString& text) {
    auto* e = new QLineEdit(text);
    e->setObjectName(objectName);
    return e;
}

// A file's path with a Browse button beside it.
QWidget* fileRow(QLineEdit* path, QWidget* parent) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* browse = new QPushButton(SettingsDialog::tr("Browse…"));
    layout->addWidget(path, 1);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, parent, [path, parent] {
        const auto chosen = QFileDialog::getOpenFileName(parent, SettingsDialog::tr("PEM file"), path->text(),
                                                         SettingsDialog::tr("PEM files (*.pem *.crt *.key);;All files (*)"));
        if (!chosen.isEmpty()) path->setText(chosen);
    });
    return row;
}

}  // namespace

SettingsDialog::SettingsDialog(const StationSettings& current, const QStringList& nodesInUse, const QString& language, QWidget* parent)
    : QDialog(parent), inUse_(nodesInUse), original_(current), aeTitle_(edit("stationAeTitleEdit", current.stationAeTitle)),
      stationName_(edit("stationNameEdit", current.stationName)), nodes_(new QTableWidget(0, kColumns)), echo_(new QLabel),
      certificate_(edit("tlsCertificateEdit", current.tlsCertificate)), privateKey_(edit("tlsPrivateKeyEdit", current.tlsPrivateKey)),
      trusted_(edit("tlsTrustedEdit", current.tlsTrustedCertificates)), atConnect_(new QCheckBox(tr("Run the self-test at every connect"))),
      probes_(new ProbeTab(current.probes, current.probe)), mode_(new QComboBox), language_(new QComboBox), problems_(new QLabel) {
    setObjectName("settingsDialog");
    setWindowTitle(tr("Settings"));
    auto* tabs = new QTabWidget;
    tabs->addTab(makeDicomPage(current), tr("DICOM"));
    tabs->addTab(makeTlsPage(), tr("TLS"));
    tabs->addTab(probes_, tr("Probe"));
    tabs->addTab(makeStartupPage(current, language), tr("Start-up"));

    problems_->setObjectName("settingsProblemsLabel");
    problems_->setWordWrap(true);
    problems_->setStyleSheet("color: #d03030");
    auto* note = new QLabel(tr("Kept settings apply at the next start."));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setObjectName("settingsOkButton");
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs, 1);
    layout->addWidget(problems_);
    layout->addWidget(note);
    layout->addWidget(buttons);
    updateTest();
    resize(640, 460);
}

// The DICOM tab: the station's identity, and the PACS nodes with Add, Remove and Test.
QWidget* SettingsDialog::makeDicomPage(const StationSettings& current) {
    auto* dicom = new QWidget;
    auto* dicomLayout = new QVBoxLayout(dicom);
    auto* identity = new QFormLayout;
    identity->addRow(tr("Station AE title"), aeTitle_);
    identity->addRow(tr("Station name"), stationName_);
    dicomLayout->addLayout(identity);
    nodes_->setObjectName("nodesTable");
    nodes_->setHorizontalHeaderLabels({tr("Name"), tr("AE title"), tr("Host"), tr("Port"), tr("TLS")});
    nodes_->horizontalHeader()->setStretchLastSection(true);
    nodes_->setSelectionBehavior(QAbstractItemView::SelectRows);
    nodes_->setSelectionMode(QAbstractItemView::SingleSelection);
    for (const auto& n : current.nodes) addNodeRow(n);
    dicomLayout->addWidget(nodes_, 1);
    auto* nodeButtons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"));
    add->setObjectName("addNodeButton");
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName("removeNodeButton");
    auto* test = new QPushButton(tr("Test (C-ECHO)"));
    test->setObjectName("echoButton");
    test_ = test;
    echo_->setObjectName("echoResultLabel");
    echo_->setWordWrap(true);
    nodeButtons->addWidget(add);
    nodeButtons->addWidget(remove);
    nodeButtons->addWidget(test);
    nodeButtons->addWidget(echo_, 1);
    dicomLayout->addLayout(nodeButtons);
    connect(add, &QPushButton::clicked, this, [this] {
        addNodeRow({tr("new-node"), "PACS", "127.0.0.1", 104, false});
        nodes_->selectRow(nodes_->rowCount() - 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (nodes_->currentRow() >= 0) nodes_->removeRow(nodes_->currentRow());
        updateTest();
    });
    connect(test, &QPushButton::clicked, this, [this] { requestEcho(); });
    connect(nodes_, &QTableWidget::itemSelectionChanged, this, &SettingsDialog::updateTest);
    connect(nodes_, &QTableWidget::itemChanged, this, &SettingsDialog::updateTest);
    return dicom;
}

// Test: a C-ECHO to the selected node, as the running station uses it, or (edited, new, or the
// station's AE title or TLS files changed) as shown here.
void SettingsDialog::requestEcho() {
    const int row = nodes_->currentRow();
    if (row < 0) return;
    const auto now = values();
    if (row >= now.nodes.size()) return;
    const auto& node = now.nodes[row];
    echo_->setStyleSheet({});
    echo_->setText(tr("Asking %1…").arg(node.name));
    const bool stationSame = now.stationAeTitle == original_.stationAeTitle && now.tlsCertificate == original_.tlsCertificate &&
                             now.tlsPrivateKey == original_.tlsPrivateKey && now.tlsTrustedCertificates == original_.tlsTrustedCertificates;
    Q_EMIT echoRequested(node, stationSame && inUse_.contains(node.name) && original_.nodes.contains(node));
}

// The TLS tab: this station's certificate and key and the trusted CAs, each a file to browse for.
QWidget* SettingsDialog::makeTlsPage() {
    auto* tls = new QWidget;
    auto* tlsForm = new QFormLayout(tls);
    tlsForm->addRow(new QLabel(tr("For the nodes marked TLS: this station's certificate and key, and the CAs that sign the nodes'.")));
    tlsForm->addRow(tr("Certificate"), fileRow(certificate_, this));
    tlsForm->addRow(tr("Private key"), fileRow(privateKey_, this));
    tlsForm->addRow(tr("Trusted certificates"), fileRow(trusted_, this));
    return tls;
}

// The Start-up tab: the self-test at every connect, its mode, and the console's language.
QWidget* SettingsDialog::makeStartupPage(const StationSettings& current, const QString& language) {
    auto* station = new QWidget;
    auto* stationForm = new QFormLayout(station);
    atConnect_->setObjectName("selfTestAtConnectCheck");
    atConnect_->setChecked(current.selfTestAtConnect);
    mode_->setObjectName("selfTestModeCombo");
    mode_->addItem(tr("quick"), QStringLiteral("quick"));
    mode_->addItem(tr("full"), QStringLiteral("full"));
    mode_->setCurrentIndex(std::max(0, mode_->findData(current.selfTestMode)));
    language_->setObjectName("languageCombo");
    language_->addItem(tr("English"), QStringLiteral("en"));
    language_->addItem(tr("Simplified Chinese (简体中文)"), QStringLiteral("zh_CN"));
    language_->setCurrentIndex(std::max(0, language_->findData(language)));
    stationForm->addRow(atConnect_);
    stationForm->addRow(tr("Self-test"), mode_);
    stationForm->addRow(tr("Language"), language_);
    return station;
}

void SettingsDialog::addNodeRow(const PacsNodeEntry& n) {
    const QSignalBlocker quiet(nodes_);  // the row is read only once whole
    const int row = nodes_->rowCount();
    nodes_->insertRow(row);
    nodes_->setItem(row, kName, new QTableWidgetItem(n.name));
    nodes_->setItem(row, kAeTitle, new QTableWidgetItem(n.aeTitle));
    nodes_->setItem(row, kHost, new QTableWidgetItem(n.host));
    nodes_->setItem(row, kPort, new QTableWidgetItem(QString::number(n.port)));
    auto* tls = new QTableWidgetItem;
    tls->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    tls->setCheckState(n.tls ? Qt::Checked : Qt::Unchecked);
    nodes_->setItem(row, kTls, tls);
}

StationSettings SettingsDialog::values() const {
    StationSettings s;
    s.stationAeTitle = aeTitle_->text();
    s.stationName = stationName_->text();
    for (int r = 0; r < nodes_->rowCount(); ++r) {
        const auto text = [&](int c) { return nodes_->item(r, c) ? nodes_->item(r, c)->text().trimmed() : QString(); };
        bool ok = false;
        const int port = text(kPort).toInt(&ok);
        const auto* tls = nodes_->item(r, kTls);
        s.nodes << PacsNodeEntry{text(kName), text(kAeTitle), text(kHost), ok ? port : -1, tls && tls->checkState() == Qt::Checked};
    }
    s.tlsCertificate = certificate_->text().trimmed();
    s.tlsPrivateKey = privateKey_->text().trimmed();
    s.tlsTrustedCertificates = trusted_->text().trimmed();
    s.probes = probes_->probes();
    s.probe = probes_->inUse();
    s.selfTestAtConnect = atConnect_->isChecked();
    s.selfTestMode = mode_->currentData().toString();
    return s;
}

QString SettingsDialog::language() const { return language_->currentData().toString(); }

// Test: any node listed, as it is in use or as edited.
void SettingsDialog::updateTest() {
    const int row = nodes_->currentRow();
    test_->setEnabled(row >= 0 && row < nodes_->rowCount());
    test_->setToolTip(tr("Send a C-ECHO to this node as shown here (an edited or new node is asked before it is kept)"));
}

void SettingsDialog::showEcho(const QString& node, bool answered, const QString& message) {
    echo_->setStyleSheet(answered ? "color: #2c8a2c" : "color: #d03030");
    echo_->setText(answered ? tr("%1 answered: %2").arg(node, message) : tr("%1 did not answer: %2").arg(node, message));
    echo_->setToolTip(message);
}

void SettingsDialog::accept() {
    const auto problems = problemsOf(values());
    problems_->setText(problems.join('\n'));
    if (problems.isEmpty()) QDialog::accept();
}

}  // namespace sonolink::gui
