#include "sonolink/config/config_loader.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

namespace sonolink::config {
namespace {

bool hasIssue(const ConfigParse& parse, const std::string& key, const std::string& reasonPart) {
    return std::any_of(parse.issues.begin(), parse.issues.end(),
                       [&](const ConfigIssue& issue) { return issue.key == key && issue.reason.find(reasonPart) != std::string::npos; });
}

std::string dump(const ConfigParse& parse) {
    std::string text;
    for (const auto& issue : parse.issues) text += issue.describe() + "\n";
    return text;
}

TEST(ConfigLoaderTest, EmptyObjectGivesDefaults) {
    auto parse = parseConfig("{}", "empty.json");
    ASSERT_TRUE(parse.ok()) << dump(parse);
    EXPECT_EQ(parse.config.link.backend, LinkBackend::Sim);
    EXPECT_EQ(parse.config.link.slotSizeBytes, 256u * 1024u);
    EXPECT_EQ(parse.config.probe.elementCount, 128);
}

TEST(ConfigLoaderTest, ShippedDefaultConfigIsValid) {
    auto loaded = loadConfigFile(SONOLINK_DEFAULT_CONFIG);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(loaded->dicom.nodes.size(), 1u);
    EXPECT_EQ(loaded->dicom.nodes[0].aeTitle, "ORTHANC");
    EXPECT_EQ(loaded->acquisition.planeWaveAnglesDeg.size(), 3u);
}

// The station's data folder: every relative data folder and file goes under it (both queues'
// defaults included), absolute ones stay; "." (the default) leaves them as written.
TEST(ConfigLoaderTest, RelativeDataFoldersAndFilesGoUnderTheStationsDataFolder) {
    auto placed = parseConfig(R"({"data_directory": "/srv/station", "recording": {"directory": "recordings"},
        "dicom": {"queue_directory": "/var/q", "audit_file": "dicom-audit.log"}, "log": {"file": "logs/sonolink.log"}})",
                              "data.json");
    ASSERT_TRUE(placed.ok()) << dump(placed);
    EXPECT_EQ(placed.config.recording.directory, "/srv/station/recordings");
    EXPECT_EQ(placed.config.dicom.queueDirectory, "/var/q");
    EXPECT_EQ(placed.config.dicom.auditFile, "/srv/station/dicom-audit.log");
    EXPECT_EQ(placed.config.archive.queueDirectory, "/srv/station/archive-queue");  // a default, under it too
    EXPECT_EQ(placed.config.archive.journalDirectory, "/srv/station/archive-journal");
    EXPECT_EQ(placed.config.archive.auditFile, "/srv/station/archive-audit.log");
    EXPECT_EQ(placed.config.selftest.reportDirectory, "/srv/station/qa-reports");
    EXPECT_EQ(placed.config.log.file, "/srv/station/logs/sonolink.log");
    auto asWritten = parseConfig(R"({"recording": {"directory": "recordings"}})", "default.json");
    ASSERT_TRUE(asWritten.ok()) << dump(asWritten);
    EXPECT_EQ(asWritten.config.recording.directory, "recordings");
    EXPECT_EQ(asWritten.config.archive.queueDirectory, "archive-queue");
    EXPECT_EQ(asWritten.config.log.file, "");  // no log file stays none
    EXPECT_TRUE(hasIssue(parseConfig(R"({"data_directory": ""})", "empty.json"), "/data_directory", "empty"));
}

// The packaged /etc/sonolink/sonolink.json is one file for every user of the station: "~/" in a
// file or folder is each user's home; elsewhere a "~" is kept as written.
TEST(ConfigLoaderTest, AHomeInFilesAndFoldersIsTheUsersHome) {
    const char* home = std::getenv("HOME");
    const std::string kept = home ? home : "";
    ::setenv("HOME", "/home/sonographer", 1);
    auto parse = parseConfig(R"({"recording": {"directory": "~/SonoLink/recordings"}, "selftest": {"report_directory": "~"},
        "dicom": {"queue_directory": "~/q", "audit_file": "a~/b", "tls": {"certificate": "~/tls/station.pem"}}, "log": {"file": "~user/x"}})",
                             "home.json");
    ::unsetenv("HOME");
    auto unset = parseConfig(R"({"recording": {"directory": "~/SonoLink/recordings"}})", "nohome.json");
    if (home) ::setenv("HOME", kept.c_str(), 1);
    ASSERT_TRUE(parse.ok()) << dump(parse);
    EXPECT_EQ(parse.config.recording.directory, "/home/sonographer/SonoLink/recordings");
    EXPECT_EQ(parse.config.selftest.reportDirectory, "/home/sonographer");
    EXPECT_EQ(parse.config.dicom.queueDirectory, "/home/sonographer/q");
    EXPECT_EQ(parse.config.dicom.auditFile, "a~/b");
    EXPECT_EQ(parse.config.dicom.tls.certificate, "/home/sonographer/tls/station.pem");
    EXPECT_EQ(parse.config.log.file, "~user/x");  // another user's home is not looked up
    EXPECT_TRUE(hasIssue(unset, "/recording/directory", "HOME is not set")) << dump(unset);
}

TEST(ConfigLoaderTest, ReadsEveryKindOfValue) {
    auto parse = parseConfig(R"({
      "log": {"level": "debug", "categories": {"link": "trace"}},
      "link": {"backend": "verbs", "address": "10.233.0.1", "port": 20000, "slot_size_bytes": 1048576,
               "completion_mode": "busy_poll", "huge_pages": true, "rx_cpu": 3, "shm_name": "fe1"},
      "acquisition": {"sampling_rate_hz": 62.5e6, "plane_wave_angles_deg": [-5, 5]},
      "beamform": {"window": "tukey", "f_number": 1.75},
      "dicom": {"uid_root": "1.2.826.0.1.3680043.10.1234",
                "queue_directory": "/var/lib/sonolink/queue", "retry_initial_s": 2, "retry_max_s": 300,
                "commitment_timeout_s": 900, "dimse_timeout_s": 45, "queue_retention_days": 7.5, "device_serial_number": "SL-2026-0042",
                "tls": {"certificate": "ws.pem", "private_key": "ws.key", "trusted_certificates": "ca.pem"},
                "nodes": [{"name": "pacs", "ae_title": "PACS", "host": "10.0.0.9", "port": 11112, "tls": true,
                           "storage_commitment": true}]},
      "metrics": {"prometheus_port": 9464}
    })",
                             "full.json");
    ASSERT_TRUE(parse.ok()) << dump(parse);
    const auto& c = parse.config;
    EXPECT_EQ(c.log.level, log::Level::Debug);
    EXPECT_EQ(c.log.categoryLevels.at("link"), log::Level::Trace);
    EXPECT_EQ(c.link.backend, LinkBackend::Verbs);
    EXPECT_EQ(c.link.address, "10.233.0.1");
    EXPECT_EQ(c.link.port, 20000);
    EXPECT_EQ(c.link.shmName, "fe1");
    EXPECT_TRUE(c.link.hugePages);
    EXPECT_EQ(c.link.slotSizeBytes, 1048576u);
    EXPECT_EQ(c.link.completionMode, CompletionMode::BusyPoll);
    EXPECT_EQ(c.link.rxCpu, 3);
    EXPECT_DOUBLE_EQ(c.acquisition.samplingRateHz, 62.5e6);
    EXPECT_EQ(c.acquisition.planeWaveAnglesDeg, (std::vector<double>{-5, 5}));
    EXPECT_EQ(c.beamform.window, ApodizationWindow::Tukey);
    EXPECT_TRUE(c.dicom.nodes.at(0).tls);
    EXPECT_TRUE(c.dicom.nodes.at(0).storageCommitment);
    EXPECT_EQ(c.dicom.queueDirectory, "/var/lib/sonolink/queue");
    EXPECT_DOUBLE_EQ(c.dicom.retryInitialS, 2);
    EXPECT_DOUBLE_EQ(c.dicom.retryMaxS, 300);
    EXPECT_DOUBLE_EQ(c.dicom.commitmentTimeoutS, 900);
    EXPECT_EQ(c.dicom.dimseTimeoutS, 45);
    EXPECT_DOUBLE_EQ(c.dicom.queueRetentionDays, 7.5);
    EXPECT_EQ(c.dicom.deviceSerialNumber, "SL-2026-0042");
    EXPECT_EQ(c.dicom.tls.privateKey, "ws.key");
    EXPECT_EQ(c.metrics.prometheusPort, 9464);
}

TEST(ConfigLoaderTest, ReportsEveryBadValueWithKeyAndReason) {
    auto parse = parseConfig(R"({
      "link": {"slot_size_bytes": 100000, "backend": "udp", "port": 0},
      "probe": {"element_count": 512},
      "acquisition": {"sampling_rate_hz": "fast"}
    })",
                             "bad.json");
    EXPECT_EQ(parse.issues.size(), 5u) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/link/slot_size_bytes", "multiple of 4096")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/link/backend", "\"sim\", \"verbs\"")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/link/port", "between 1 and 65535")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/probe/element_count", "between 1 and 256")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/acquisition/sampling_rate_hz", "must be a number")) << dump(parse);
    for (const auto& issue : parse.issues) EXPECT_EQ(issue.file, "bad.json");
}

TEST(ConfigLoaderTest, BadValueKeepsTheDefault) {
    auto parse = parseConfig(R"({"link": {"slot_count": -4}})", "x.json");
    EXPECT_FALSE(parse.ok());
    EXPECT_EQ(parse.config.link.slotCount, 256u);
}

TEST(ConfigLoaderTest, UnknownKeysAreReported) {
    auto parse = parseConfig(R"({"link": {"slot_sise_bytes": 4096}, "linkk": {}})", "typo.json");
    EXPECT_TRUE(hasIssue(parse, "/link/slot_sise_bytes", "unknown key")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/linkk", "unknown key")) << dump(parse);
}

TEST(ConfigLoaderTest, WrongTypesAreReported) {
    auto parse = parseConfig(R"({"link": 5, "probe": {"element_count": 64.5},
                                 "beamform": {"f_number": true}, "dicom": {"nodes": {}}})",
                             "t.json");
    EXPECT_TRUE(hasIssue(parse, "/link", "must be a JSON object")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/probe/element_count", "whole number")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/beamform/f_number", "must be a number")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/nodes", "must be an array")) << dump(parse);
}

TEST(ConfigLoaderTest, ChecksDicomIdentifiers) {
    auto parse = parseConfig(R"({"dicom": {"station_ae_title": "A_VERY_LONG_AE_TITLE_X",
      "uid_root": "1.2.4.x",
      "nodes": [{"name": "a", "ae_title": "A", "host": "h", "port": 70000},
                {"name": "a", "ae_title": "B\\C", "host": "h", "port": 104},
                {"ae_title": "C"}]}})",
                             "d.json");
    EXPECT_TRUE(hasIssue(parse, "/dicom/station_ae_title", "1 to 16 characters")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/uid_root", "digits and dots")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/nodes/0/port", "between 1 and 65535")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/nodes/1/name", "duplicate")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/nodes/1/ae_title", "backslash")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/nodes/2/host", "required")) << dump(parse);
}

TEST(ConfigLoaderTest, ChecksTheStoreAndForwardSettings) {
    auto parse =
        parseConfig(R"({"dicom": {"retry_initial_s": 60, "retry_max_s": 10, "dimse_timeout_s": 0, "queue_retention_days": -1, "device_serial_number": "A\\\\B",
      "nodes": [{"name": "a", "ae_title": "A", "host": "h", "port": 104, "tls": true}]}})",
                    "q.json");
    EXPECT_TRUE(hasIssue(parse, "/dicom/retry_max_s", "at least dicom.retry_initial_s")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/dimse_timeout_s", "between 1 and 3600")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/queue_retention_days", "between 0 and 3650")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/device_serial_number", "backslash")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/dicom/tls", "a node has tls")) << dump(parse);
}

TEST(ConfigLoaderTest, VerbsNeedsAnAddress) {
    auto parse = parseConfig(R"({"link": {"backend": "verbs", "shm_name": "a/b"}})", "v.json");
    EXPECT_TRUE(hasIssue(parse, "/link/address", "is required")) << dump(parse);
    EXPECT_TRUE(hasIssue(parse, "/link/shm_name", "without '/'")) << dump(parse);
    auto bad = parseConfig(R"({"link": {"address": "10.0.0.300"}})", "a.json");
    EXPECT_TRUE(hasIssue(bad, "/link/address", "IPv4")) << dump(bad);
}

TEST(ConfigLoaderTest, UidRootLeadingZeroIsRejected) {
    auto parse = parseConfig(R"({"dicom": {"uid_root": "1.2.03"}})", "u.json");
    EXPECT_TRUE(hasIssue(parse, "/dicom/uid_root", "leading zero")) << dump(parse);
}

TEST(ConfigLoaderTest, CrossFieldNyquistCheck) {
    auto parse = parseConfig(R"({"probe": {"center_frequency_hz": 15e6},
                                 "acquisition": {"sampling_rate_hz": 25e6}})",
                             "n.json");
    EXPECT_TRUE(hasIssue(parse, "/acquisition/sampling_rate_hz", "twice")) << dump(parse);
}

TEST(ConfigLoaderTest, BadAnglesAreReported) {
    auto parse = parseConfig(R"({"acquisition": {"plane_wave_angles_deg": [0, 60, "x"]}})", "a.json");
    EXPECT_TRUE(hasIssue(parse, "/acquisition/plane_wave_angles_deg", "between -45 and 45")) << dump(parse);
}

TEST(ConfigLoaderTest, TheDisplaySectionIsReadAndEveryBadValueNamed) {
    auto good = parseConfig(R"({"display": {"tgc_db": [0, 1, 2, 3, 4, 5, 6, 7, 8], "persistence": 0.4, "grey_map": "contrast",
                                            "columns": 800, "rows": 600}})",
                            "a.json");
    ASSERT_TRUE(good.issues.empty()) << dump(good);
    EXPECT_EQ(good.config.display.tgcDb.size(), 9u);
    EXPECT_DOUBLE_EQ(good.config.display.tgcDb.back(), 8);
    EXPECT_DOUBLE_EQ(good.config.display.persistence, 0.4);
    EXPECT_EQ(good.config.display.greyMap, GreyMap::Contrast);
    EXPECT_EQ(good.config.display.columns, 800);
    EXPECT_EQ(good.config.display.rows, 600);
    auto few = parseConfig(R"({"display": {"tgc_db": [0, 0, 0]}})", "a.json");
    EXPECT_TRUE(hasIssue(few, "/display/tgc_db", "3 TGC points: give 8 to 32")) << dump(few);
    EXPECT_EQ(few.config.display.tgcDb.size(), 8u) << "the default kept";
    auto bad = parseConfig(R"({"display": {"tgc_db": [0, 0, 0, 0, 0, 0, 0, 90], "persistence": 1, "grey_map": "rainbow", "columns": 10}})", "a.json");
    EXPECT_TRUE(hasIssue(bad, "/display/tgc_db", "from -40 to 40 dB")) << dump(bad);
    EXPECT_TRUE(hasIssue(bad, "/display/persistence", "")) << dump(bad);
    EXPECT_TRUE(hasIssue(bad, "/display/grey_map", "")) << dump(bad);
    EXPECT_TRUE(hasIssue(bad, "/display/columns", "")) << dump(bad);
}

TEST(ConfigLoaderTest, TheSelfTestSectionIsReadAndEveryBadValueNamed) {
    auto good = parseConfig(R"({"selftest": {"at_connect": true, "mode": "full", "ber_pattern": "prbs23", "ber_limit": 1e-13,
                                             "ber_quick_limit": 1e-9, "ber_confidence": 0.99, "ber_timeout_s": 300}})",
                            "a.json");
    ASSERT_TRUE(good.issues.empty()) << dump(good);
    const auto& s = good.config.selftest;
    EXPECT_TRUE(s.atConnect);
    EXPECT_EQ(s.mode, SelfTestMode::Full);
    EXPECT_EQ(s.berPattern, BerPattern::Prbs23);
    EXPECT_DOUBLE_EQ(s.berLimit, 1e-13);
    EXPECT_DOUBLE_EQ(s.berQuickLimit, 1e-9);
    EXPECT_DOUBLE_EQ(s.berConfidence, 0.99);
    EXPECT_DOUBLE_EQ(s.berTimeoutS, 300);
    auto bad = parseConfig(R"({"selftest": {"at_connect": "yes", "mode": "thorough", "ber_pattern": "prbs9", "ber_limit": 0.5,
                                            "ber_confidence": 1, "ber_timeout_s": 0}})",
                           "a.json");
    for (const char* key :
         {"/selftest/at_connect", "/selftest/mode", "/selftest/ber_pattern", "/selftest/ber_limit", "/selftest/ber_confidence", "/selftest/ber_timeout_s"}) {
        EXPECT_TRUE(hasIssue(bad, key, "")) << key << ": " << dump(bad);
    }
    EXPECT_FALSE(parseConfig("{}", "a.json").config.selftest.atConnect) << "off unless configured (the shipped configuration turns it on)";
}

// The steps a site runs at connect, as data: named as the engine names them, an unknown one
// refused listing the steps; the station's name as the QA report shows it.
TEST(ConfigLoaderTest, TheSelfTestStepsAndTheStationNameAreChecked) {
    auto good = parseConfig(R"({"selftest": {"steps": ["station: memlock limit", "link BER", "PACS"], "report_directory": "/var/lib/sonolink/qa"},
                                "dicom": {"station_name": "超声科三号机"}})",
                            "a.json");
    ASSERT_TRUE(good.issues.empty()) << dump(good);
    EXPECT_EQ(good.config.selftest.steps, (std::vector<std::string>{"station: memlock limit", "link BER", "PACS"}));
    EXPECT_EQ(good.config.dicom.stationName, "超声科三号机");
    EXPECT_EQ(good.config.selftest.reportDirectory, "/var/lib/sonolink/qa");
    EXPECT_TRUE(parseConfig("{}", "a.json").config.selftest.steps.empty()) << "every step by default";
    auto bad = parseConfig(R"({"selftest": {"steps": ["link BER", "memory"], "report_directory": ""}, "dicom": {"station_name": "a station name too long"}})",
                           "a.json");
    EXPECT_TRUE(hasIssue(bad, "/selftest/steps", "no self-test step is named 'memory' (the steps: station, GPU memory, ring memory")) << dump(bad);
    EXPECT_TRUE(hasIssue(bad, "/dicom/station_name", "at most 16 characters")) << dump(bad);
    EXPECT_TRUE(hasIssue(bad, "/selftest/report_directory", "must not be empty")) << dump(bad);
    EXPECT_TRUE(bad.config.selftest.steps.empty()) << "a bad list keeps the default";
}

TEST(ConfigLoaderTest, MalformedJsonNamesLineAndColumn) {
    auto parse = parseConfig("{\n  \"link\": {\n    \"port\": 1,,\n  }\n}", "broken.json");
    ASSERT_EQ(parse.issues.size(), 1u);
    EXPECT_EQ(parse.issues[0].key, "");
    EXPECT_NE(parse.issues[0].reason.find("line 3"), std::string::npos) << dump(parse);
}

TEST(ConfigLoaderTest, TopLevelMustBeAnObject) {
    auto parse = parseConfig("[1, 2]", "arr.json");
    EXPECT_TRUE(hasIssue(parse, "/", "must be a JSON object")) << dump(parse);
}

TEST(ConfigLoaderTest, UnsupportedSchemaVersion) {
    auto parse = parseConfig(R"({"schema_version": 2})", "v.json");
    EXPECT_TRUE(hasIssue(parse, "/schema_version", "between 1 and 1")) << dump(parse);
}

// The self-test's steps as data (resources/selftest/steps.json): the shipped file holds every
// limit the engine uses, each step's timeout and whether its failure blocks streaming.
TEST(ConfigLoaderTest, TheShippedStepsFileDefinesTheSelfTestsLimitsAndPolicy) {
    auto loaded = loadConfigFile(SONOLINK_DEFAULT_CONFIG);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const auto& s = loaded->selftest;
    EXPECT_NE(s.stepsFile.find("resources/selftest/steps.json"), std::string::npos) << s.stepsFile;  // beside the configuration, found from anywhere
    EXPECT_DOUBLE_EQ(s.berLimit, 1e-12);
    EXPECT_DOUBLE_EQ(s.berQuickLimit, 1e-10);
    EXPECT_DOUBLE_EQ(s.berTimeoutS, 120);
    EXPECT_DOUBLE_EQ(s.elementTimeoutS, 20);
    EXPECT_EQ(s.gpuMemoryMib, 1024);
    EXPECT_DOUBLE_EQ(s.phantomMinNcc, 0.9);
    EXPECT_EQ(s.blocksStreaming.at("PACS"), false);
    EXPECT_EQ(s.blocksStreaming.at("link BER"), true);
    EXPECT_FALSE(s.blocksStreaming.contains("station")) << "each station check blocks by its nature";
}

// A site's steps file: its limits, timeouts and policy applied; every mistake named with the
// file and the step (a step out of the engine's order, an unknown one, a limit under another
// step, a timeout where the step has none, a bad value), and nothing of a bad file applied.
TEST(ConfigLoaderTest, ASitesStepsFileIsAppliedAndEveryMistakeNamed) {
    SelfTestSettings site;
    auto issues = parseSelfTestSteps(R"(// a site's own
        {"schema_version": 1, "steps": [
          {"name": "link BER", "timeout_s": 300, "limits": {"ber_limit": 1e-13, "ber_pattern": "prbs23"}},
          {"name": "element check", "timeout_s": 45, "limits": {"element_dead_rms_fraction": 0.1}},
          {"name": "PACS", "blocks_streaming": true}]})",
                                     "site-steps.json", site);
    ASSERT_TRUE(issues.empty()) << issues.front().describe();
    EXPECT_DOUBLE_EQ(site.berLimit, 1e-13);
    EXPECT_EQ(site.berPattern, BerPattern::Prbs23);
    EXPECT_DOUBLE_EQ(site.berTimeoutS, 300);
    EXPECT_DOUBLE_EQ(site.elementTimeoutS, 45);
    EXPECT_DOUBLE_EQ(site.elementDeadRmsFraction, 0.1);
    EXPECT_DOUBLE_EQ(site.berQuickLimit, 1e-10) << "what the file leaves out keeps its default";
    EXPECT_EQ(site.blocksStreaming, (std::map<std::string, bool>{{"PACS", true}}));

    SelfTestSettings bad;
    issues = parseSelfTestSteps(R"({"steps": [
          {"name": "link BER", "limits": {"ber_limit": 2, "element_frames": 8}},
          {"name": "ring memory", "timeout_s": 5},
          {"name": "memory"},
          {"name": "PACS", "blocks_streaming": "no"}, {"name": "element check"}]})",
                                "site-steps.json", bad);
    const auto has = [&](const std::string& key, const std::string& part) {
        return std::any_of(issues.begin(), issues.end(),
                           [&](const ConfigIssue& i) { return i.file == "site-steps.json" && i.key == key && i.reason.find(part) != std::string::npos; });
    };
    std::string all;
    for (const auto& i : issues) all += i.describe() + "\n";
    EXPECT_TRUE(has("/steps/0/limits/ber_limit", "between")) << all;
    EXPECT_TRUE(has("/steps/0/limits/element_frames", "a limit of the step 'element check', not of 'link BER'")) << all;
    EXPECT_TRUE(has("/steps/1/name", "'ring memory' out of order")) << all;
    EXPECT_TRUE(has("/steps/2/name", "no self-test step is named 'memory'")) << all;
    EXPECT_TRUE(has("/steps/3/blocks_streaming", "")) << all;
    EXPECT_TRUE(has("/steps/4/name", "'element check' out of order")) << all;
    EXPECT_FALSE(bad.blocksStreaming.contains("PACS"));
    SelfTestSettings broken;
    issues = parseSelfTestSteps("{\"steps\": [\n  {\"name\": \"PACS\",}", "site-steps.json", broken);
    EXPECT_TRUE(has("", "not valid JSON at line 2")) << issues.size();
    SelfTestSettings timeout;
    issues = parseSelfTestSteps(R"({"steps": [{"name": "ring memory", "timeout_s": 5}]})", "site-steps.json", timeout);
    EXPECT_TRUE(has("/steps/0/timeout_s", "the step 'ring memory' has no timeout of its own")) << issues.size();
}

// With a steps file, a limit in the configuration's selftest section is refused, naming the step
// it belongs under; a steps file that is not there fails the load, naming it.
TEST(ConfigLoaderTest, LimitsLiveInTheStepsFileAloneAndAMissingOneIsNamed) {
    auto both = parseConfig(R"({"selftest": {"steps_file": "steps.json", "ber_limit": 1e-11, "ber_timeout_s": 60}})", "a.json");
    EXPECT_TRUE(hasIssue(both, "/selftest/ber_limit", "set it there, under the step 'link BER'")) << dump(both);
    EXPECT_TRUE(hasIssue(both, "/selftest/ber_timeout_s", "as the 'link BER' step's timeout_s")) << dump(both);
    const auto dir = std::filesystem::temp_directory_path() / "sonolink_steps_test";
    std::filesystem::create_directories(dir);
    { std::ofstream(dir / "sonolink.json") << R"({"selftest": {"steps_file": "missing-steps.json"}})"; }
    auto missing = loadConfigFile((dir / "sonolink.json").string());
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code(), ErrorCode::NotFound);
    EXPECT_NE(missing.error().describe().find((dir / "missing-steps.json").string()), std::string::npos) << missing.error().describe();
    EXPECT_NE(missing.error().describe().find("steps file"), std::string::npos) << missing.error().describe();
    { std::ofstream(dir / "missing-steps.json") << R"({"steps": [{"name": "link BER", "limits": {"ber_confidence": 2}}]})"; }
    auto invalid = loadConfigFile((dir / "sonolink.json").string());
    std::filesystem::remove_all(dir);
    ASSERT_FALSE(invalid);
    ASSERT_FALSE(invalid.error().details().empty());
    EXPECT_NE(invalid.error().details()[0].find("missing-steps.json: /steps/0/limits/ber_confidence"), std::string::npos) << invalid.error().describe();
}

TEST(ConfigLoaderTest, MissingFileIsNotFound) {
    auto loaded = loadConfigFile("/nonexistent/sonolink.json");
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code(), ErrorCode::NotFound);
    EXPECT_NE(loaded.error().message().find("/nonexistent/sonolink.json"), std::string::npos);
}

TEST(ConfigLoaderTest, FileErrorListsEveryProblemAsDetail) {
    const auto path = std::filesystem::temp_directory_path() / "sonolink_config_test.json";
    {
        std::ofstream out(path);
        out << R"({"link": {"slot_count": 1, "port": 0}})";
    }
    auto loaded = loadConfigFile(path.string());
    std::filesystem::remove(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code(), ErrorCode::InvalidArgument);
    ASSERT_EQ(loaded.error().details().size(), 2u);
    EXPECT_NE(loaded.error().details()[0].find(path.string() + ": /link/"), std::string::npos);
}

// Hostile values (the reported bugs: 1e999 aborted the process; a huge whole number wrapped).
TEST(ConfigLoaderTest, NumbersNoTypeHoldsAreIssuesNotCrashes) {
    auto overflow = parseConfig(R"({"acquisition": {"frame_rate_hz": 1e999}})", "inf.json");
    ASSERT_FALSE(overflow.ok());
    EXPECT_NE(overflow.issues[0].reason.find("not valid JSON"), std::string::npos) << dump(overflow);
    EXPECT_NE(overflow.issues[0].reason.find("1e999"), std::string::npos) << dump(overflow);
    auto huge = parseConfig(R"({"probe": {"element_count": 18446744073709551615}})", "huge.json");
    EXPECT_TRUE(hasIssue(huge, "/probe/element_count", "must be between")) << dump(huge);
    EXPECT_EQ(huge.config.probe.elementCount, 128) << "the default stays, no wrapped value";
}

// A device, a directory or a file far bigger than any configuration is refused before it is
// read (the reported bug: `config check /dev/zero` grew memory at 1 GB/s).
TEST(ConfigLoaderTest, WhatIsNoConfigurationFileIsRefusedUnread) {
    for (const char* path : {"/dev/zero", "/tmp"}) {
        auto loaded = loadConfigFile(path);
        ASSERT_FALSE(loaded) << path;
        EXPECT_EQ(loaded.error().code(), ErrorCode::InvalidArgument) << path;
        EXPECT_NE(loaded.error().message().find("not a regular file"), std::string::npos) << loaded.error().message();
    }
    const auto big = std::filesystem::temp_directory_path() / "sonolink_config_big.json";
    std::filesystem::remove(big);
    { std::ofstream(big) << "{}"; }
    std::filesystem::resize_file(big, kMaxConfigBytes + 1);
    auto loaded = loadConfigFile(big.string());
    std::filesystem::remove(big);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message().find(std::to_string(kMaxConfigBytes + 1) + " bytes"), std::string::npos) << loaded.error().message();
}

// Command-line values are held to the file's rules and named by their option (the reported
// bug: --channels 65600 ran with 64 channels, 0 fell back to the default without a word).
TEST(ConfigLoaderTest, OverridesAreCheckedByTheSameRulesAndNamedByTheirOption) {
    auto wrapped = loadConfig("", {{"/probe/element_count", "65600", "--channels"}});
    ASSERT_FALSE(wrapped);
    ASSERT_EQ(wrapped.error().details().size(), 1u);
    EXPECT_NE(wrapped.error().details()[0].find("command line: --channels (/probe/element_count): must be between"), std::string::npos)
        << wrapped.error().details()[0];
    auto zero = loadConfig("", {{"/acquisition/samples_per_channel", "0", "--samples"}});
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.error().details()[0].find("--samples"), std::string::npos) << zero.error().details()[0];
    auto applied = loadConfig(SONOLINK_DEFAULT_CONFIG, {{"/probe/element_count", "64", "--channels"}, {"/link/slot_count", "32", "--slots"}});
    ASSERT_TRUE(applied) << applied.error().describe();
    EXPECT_EQ(applied->probe.elementCount, 64);
    EXPECT_EQ(applied->link.slotCount, 32u);
    EXPECT_EQ(applied->dicom.nodes.size(), 1u) << "the file's other values stay";
}

}  // namespace
}  // namespace sonolink::config
