// AppConfig: SonoLink's configuration as typed values, every field with a safe default.
// Filled and validated by config_loader.h; the composition root in app/ hands each section to
// the module that uses it. Plain value types: copy freely, no thread affinity.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sonolink/util/log.h"

namespace sonolink::config {

enum class LinkBackend { Sim, Verbs };
enum class CompletionMode { Event, BusyPoll };
enum class BeamformerBackend { Auto, Cuda, Cpu };
enum class ApodizationWindow { Rectangular, Hann, Tukey };
enum class GreyMap { Linear, Soft, Contrast };
enum class BerPattern { Prbs7, Prbs15, Prbs23, Prbs31 };
enum class SelfTestMode { Quick, Full };

struct LinkSettings {
    LinkBackend backend = LinkBackend::Sim;
    std::string shmName = "sonolink0";         // sim: /dev/shm/<name> that sonolink-fe-sim attaches to
    std::string address;                       // verbs: the host's IP on the RDMA interface (listen)
    int port = 18515;                          // verbs: rdma_cm port
    std::uint32_t slotSizeBytes = 256 * 1024;  // ring slot: multiple of 4 KiB
    std::uint32_t slotCount = 256;
    CompletionMode completionMode = CompletionMode::Event;
    bool hugePages = false;  // verbs: ring in huge pages
    int rxCpu = -1;          // pin the completion thread; -1 = no pinning
};

struct ProbeSettings {
    int elementCount = 128;  // 1..256
    double pitchM = 0.3e-3;
    double centerFrequencyHz = 5e6;
};

struct AcquisitionSettings {
    double samplingRateHz = 40e6;  // 20..125 MHz
    int samplesPerChannel = 2048;
    double frameRateHz = 30;
    std::vector<double> planeWaveAnglesDeg = {-10.0, 0.0, 10.0};
    double soundSpeedMps = 1540;
    // Photoacoustic shots: the speed they are reconstructed at (0: soundSpeedMps), and the system
    // delay from the laser's trigger to the sound's time zero (the lens, the coupling, the
    // trigger's latency): the record's first sample is that long before it.
    double photoacousticSoundSpeedMps = 0;
    double photoacousticSystemDelayS = 0;
    // Dual mode: laser shots interleaved with the ultrasound frames at this rate (the host
    // schedules each on the front end's clock); 0: ultrasound only.
    double laserRateHz = 0;
};

struct BeamformSettings {
    BeamformerBackend backend = BeamformerBackend::Auto;
    double fNumber = 1.5;
    ApodizationWindow window = ApodizationWindow::Hann;
    double dynamicRangeDb = 60;
    double gainDb = 0;
};

// The live picture: time-gain compensation (dB at 8 to 32 points spread evenly over the imaged
// depth), frame averaging (the weight of the picture before; 0: off), the grey map, and the box
// the display raster fits at equal mm per pixel.
// Dual mode's laser shots on screen (display.photoacoustic_*): how they are shown at the start
// (the console's Photoacoustic controls change it from there).
enum class ShotView { Ultrasound, Photoacoustic, Overlay, SideBySide };
enum class ShotColourMap { Hot, Iron };

struct DisplaySettings {
    std::vector<double> tgcDb = std::vector<double>(8, 0.0);
    double persistence = 0;
    GreyMap greyMap = GreyMap::Linear;
    int columns = 512;
    int rows = 512;
    ShotView shotView = ShotView::Overlay;
    ShotColourMap shotMap = ShotColourMap::Hot;
    double shotDynamicRangeDb = 30;
    double shotThreshold = 0.35;
    double shotOpacity = 0.7;
    bool shotNormaliseEnergy = false;
};

struct RecordingSettings {
    std::string directory = "recordings";
};

struct PacsNode {
    std::string name;
    std::string aeTitle;
    std::string host;
    int port = 104;
    bool tls = false;
    bool storageCommitment = false;  // ask the node to commit what it stored
};

// The station's DICOM TLS identity (PEM files), used with nodes that have tls.
struct DicomTls {
    std::string certificate;
    std::string privateKey;
    std::string trustedCertificates;  // the CAs that sign the nodes' certificates
};

struct DicomSettings {
    std::string stationAeTitle = "SONOLINK";
    std::string stationName;         // Station Name (SH) as reports show it; empty: the host name
    std::string uidRoot;             // empty = a 2.25 UUID-derived root
    int listenPort = 11112;          // storage commitment replies
    std::string deviceSerialNumber;  // Device Serial Number of our objects; empty: the front end's, as it reports it
    std::string queueDirectory = "dicom-queue";
    double retryInitialS = 5;         // store-and-forward back-off: first delay ...
    double retryMaxS = 600;           // ... doubling up to this
    double commitmentTimeoutS = 600;  // no commitment report by then: ask again
    double queueRetentionDays = 30;   // settled items (and uncommitted nodes' copies) kept this long; 0: for ever
    int dimseTimeoutS = 60;
    std::string auditFile = "dicom-audit.log";  // DICOM audit messages (PS3.15 A.5), one per line; PHI: keep it private
    std::string auditSyslogHost;                // also send them to this syslog collector (UDP); empty: no
    int auditSyslogPort = 514;
    DicomTls tls;
    std::vector<PacsNode> nodes;
};

// The start-up self-test: the link BER test over the data path at every connect (at_connect),
// quick (shows ber_quick_limit) or full (ber_limit: 2.996e12 bits for 1e-12 at 95 %, about 30 s
// at 100 Gb/s); a failed test blocks streaming until an engineer overrides it with a reason.
struct SelfTestSettings {
    bool atConnect = false;
    SelfTestMode mode = SelfTestMode::Quick;
    BerPattern berPattern = BerPattern::Prbs31;
    double berLimit = 1e-12;
    double berQuickLimit = 1e-10;
    double berConfidence = 0.95;
    double berTimeoutS = 120;
    bool elementCheck = true;  // after the BER test, on the front end's phantom
    int elementFrames = 4;
    double elementDeadRmsFraction = 0.05;  // of the median channel's RMS
    double elementWeakRmsFraction = 0.5;
    double elementNoisySnrDropDb = 10;        // under the median channel's SNR
    double elementCorrelationFraction = 0.7;  // of the median envelope correlation with the neighbours
    double phantomMinNcc = 0.9;               // the phantom check, on the element check's first frame
    double phantomMaxPositionErrorMm = 0.5;
    double phantomMaxFwhmError = 0.25;            // |live / reference - 1|
    int gpuMemoryMib = 1024;                      // March C- over this much of each GPU's memory at connect; 0: off
    double elementTimeoutS = 20;                  // no phantom frames by then: the element check fails, saying so
    std::map<std::string, bool> blocksStreaming;  // a step's failure blocks streaming or not, where the steps file says (else the engine's own)
    // The steps file (resources/selftest/steps.json: each step's limits, timeout and whether it
    // blocks streaming), relative to the configuration file's folder; empty: the limits above.
    std::string stepsFile;
    std::vector<std::string> steps;              // the steps that run at connect (engine::kSelfTestSteps' names); empty: all
    std::string reportDirectory = "qa-reports";  // where the console keeps each run's QA report (JSON and PDF)
    // The Unix group whose members hold the engineer's role: the self-test policy, overrides and
    // signatures in the console ask for it (sonolink/auth/station_role.h).
    std::string engineerGroup = "sonolink-engineers";
};

// The S3-compatible archive: where studies and recordings go, and how the client behaves.
// Credentials: access_key_id/secret_access_key here, else the environment, else a credentials
// file (credentials_file, else ~/.aws/credentials) and its profile.
struct ArchiveSettings {
    std::string endpoint;  // http(s)://host:port; empty: no archive
    std::string region = "us-east-1";
    std::string bucket;
    std::string prefix;  // keys start with it ("site-a/")
    std::string caFile;  // PEM CAs to trust; empty: the system's
    bool verifyTls = true;
    std::string accessKeyId;
    std::string secretAccessKey;
    std::string credentialsFile;
    std::string profile;
    std::string sseCustomerKeyFile;  // SSE-C key (32 bytes, hex or base64); empty: none
    std::int64_t partSizeBytes = std::int64_t(32) << 20;
    int parallelRequests = 4;
    double connectTimeoutS = 30;
    double stallTimeoutS = 60;
    int maxAttempts = 6;
    std::string journalDirectory = "archive-journal";  // multipart journals (resume after a crash)
    std::string queueDirectory = "archive-queue";      // the persistent upload queue
    std::string auditFile = "archive-audit.log";       // every upload, download and deletion; PHI: keep it private
    double retentionDays = 30;                         // a verified upload's local file is kept this long; -1: for ever
    double retryInitialS = 5;                          // the queue's back-off: first delay ...
    double retryMaxS = 600;                            // ... doubling up to this
};

struct MetricsSettings {
    int prometheusPort = -1;  // engine statistics on 127.0.0.1:<port>/metrics; -1: off
};

struct AppConfig {
    // The station's data folder: every relative data folder and file below (recordings, QA
    // reports, both queues, journals, audit trails, the log file) is taken under it. "." (the
    // default): the folder SonoLink starts in. The package's /etc file sets ~/SonoLink.
    std::string dataDirectory = ".";
    log::Settings log;
    LinkSettings link;
    ProbeSettings probe;
    AcquisitionSettings acquisition;
    BeamformSettings beamform;
    DisplaySettings display;
    RecordingSettings recording;
    DicomSettings dicom;
    SelfTestSettings selftest;
    ArchiveSettings archive;
    MetricsSettings metrics;
};

}  // namespace sonolink::config
