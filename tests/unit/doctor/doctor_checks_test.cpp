// The doctor's own checks, each with its condition present and absent, and the readers of
// the facts on this station where a test can set the condition (a display socket, a clock).
#include "sonolink/doctor/doctor_checks.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "sonolink/doctor/station_doctor.h"

namespace sonolink::doctor {
namespace {

using V = DiagnosticVerdict;

TEST(DoctorChecksTest, RdmaAccessNeedsADeviceAndItsNodesForAVerbsLink) {
    RdmaAccessFacts facts{true, true, {"rxe0"}, {{"/dev/infiniband/uverbs0", ""}, {"/dev/infiniband/rdma_cm", ""}}, true, true};
    EXPECT_EQ(checkRdmaAccess(facts).verdict, V::Pass) << checkRdmaAccess(facts).figures;
    auto refused = facts;
    refused.nodes[0].openError = "Permission denied";
    refused.inGroup = false;
    const auto d = checkRdmaAccess(refused);
    EXPECT_EQ(d.verdict, V::Fail);
    EXPECT_NE(d.figures.find("/dev/infiniband/uverbs0: Permission denied"), std::string::npos) << d.figures;
    EXPECT_NE(d.fix.find("sudo adduser $USER sonolink"), std::string::npos) << d.fix;
    refused.groupExists = false;
    EXPECT_NE(checkRdmaAccess(refused).fix.find("--reinstall sonolink"), std::string::npos);
    auto none = facts;
    none.devices.clear();
    none.nodes.clear();
    EXPECT_EQ(checkRdmaAccess(none).verdict, V::Fail);
    EXPECT_NE(checkRdmaAccess(none).fix.find("rdma link add"), std::string::npos);
    auto notBuilt = facts;
    notBuilt.rdmaBuilt = false;
    EXPECT_EQ(checkRdmaAccess(notBuilt).verdict, V::Fail);
}

TEST(DoctorChecksTest, ASimulatedLinkNeedsNoRdmaButSaysWhenItsNodesAreClosed) {
    RdmaAccessFacts facts{false, true, {}, {}, true, false};
    EXPECT_EQ(checkRdmaAccess(facts).verdict, V::Pass);
    facts.devices = {"mlx5_0"};
    facts.nodes = {{"/dev/infiniband/uverbs0", "Permission denied"}};
    EXPECT_EQ(checkRdmaAccess(facts).verdict, V::Warn);
}

TEST(DoctorChecksTest, TheQtPlatformPluginMustBeThereAndLoad) {
    QtPluginFacts facts{"/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqxcb.so", true, ""};
    EXPECT_EQ(checkQtPlatformPlugin(facts).verdict, V::Pass);
    facts.loadError = "libxcb-cursor.so.0: cannot open shared object file";
    EXPECT_EQ(checkQtPlatformPlugin(facts).verdict, V::Fail);
    EXPECT_NE(checkQtPlatformPlugin(facts).figures.find("libxcb-cursor"), std::string::npos);
    facts.present = false;
    EXPECT_EQ(checkQtPlatformPlugin(facts).verdict, V::Fail);
    EXPECT_NE(checkQtPlatformPlugin(facts).fix.find("libqt6gui6"), std::string::npos);
}

TEST(DoctorChecksTest, NoDisplayWarnsAndOneThatDoesNotAnswerFails) {
    EXPECT_EQ(checkDisplay({":0", "", ""}).verdict, V::Pass);
    EXPECT_EQ(checkDisplay({"", "wayland-0", ""}).verdict, V::Pass);
    const auto none = checkDisplay({"", "", ""});
    EXPECT_EQ(none.verdict, V::Warn);
    EXPECT_NE(none.fix.find("xvfb-run"), std::string::npos);
    EXPECT_EQ(checkDisplay({":7", "", "Connection refused"}).verdict, V::Fail);
}

TEST(DoctorChecksTest, ChineseNeedsAFontThatCoversIt) {
    EXPECT_EQ(checkChineseFonts({true, "", {"Noto Sans CJK SC"}}).verdict, V::Pass);
    const auto none = checkChineseFonts({true, "", {}});
    EXPECT_EQ(none.verdict, V::Warn);
    EXPECT_NE(none.fix.find("fonts-noto-cjk"), std::string::npos);
    EXPECT_EQ(checkChineseFonts({false, "fc-list not found", {}}).verdict, V::Warn);
}

TEST(DoctorChecksTest, TheConfigurationNamesEachProblem) {
    EXPECT_EQ(checkConfiguration("/etc/sonolink/sonolink.json", {}).verdict, V::Pass);
    EXPECT_EQ(checkConfiguration("", {}).verdict, V::Pass);
    const auto bad = checkConfiguration("/etc/sonolink/sonolink.json", {"/link/slot_count: must be between 2 and 65536 (got -4)"});
    EXPECT_EQ(bad.verdict, V::Fail);
    EXPECT_NE(bad.figures.find("/link/slot_count"), std::string::npos);
    EXPECT_NE(bad.fix.find("sonolink-cli config check /etc/sonolink/sonolink.json"), std::string::npos);
}

TEST(DoctorChecksTest, EveryPacsNodeMustAnswer) {
    PacsAnswer ok{"pacs (ORTHANC at 127.0.0.1:4242)", true, "", "", 12};
    PacsAnswer down{"backup (BACKUP at 127.0.0.1:4243)", false, "nothing listening", "connection refused", 1};
    EXPECT_EQ(checkPacsNodes({ok}).verdict, V::Pass);
    const auto one = checkPacsNodes({ok, down});
    EXPECT_EQ(one.verdict, V::Fail);
    EXPECT_NE(one.figures.find("1 of 2 answered"), std::string::npos) << one.figures;
    EXPECT_NE(one.figures.find("nothing listening"), std::string::npos);
    EXPECT_EQ(checkPacsNodes({}).verdict, V::Warn);
}

TEST(DoctorChecksTest, TheClockMustBeSynchronised) {
    EXPECT_EQ(checkTimeSync({true, "", true, 20'000}).verdict, V::Pass);
    EXPECT_EQ(checkTimeSync({true, "", false, 16'000'000}).verdict, V::Warn);
    EXPECT_NE(checkTimeSync({true, "", false, 0}).fix.find("timedatectl set-ntp true"), std::string::npos);
    EXPECT_EQ(checkTimeSync({true, "", true, 2'000'000}).verdict, V::Warn);
    EXPECT_EQ(checkTimeSync({false, "Operation not permitted", false, 0}).verdict, V::Warn);
}

// The display's reader against a socket this test listens on, and the same name with none.
TEST(DoctorFactsTest, ADisplayAnswersWhenItsSocketIsListenedOn) {
    const char* kept = std::getenv("DISPLAY");
    const std::string keptDisplay = kept ? kept : "";
    const int number = 900 + static_cast<int>(::getpid() % 90);
    std::filesystem::create_directories("/tmp/.X11-unix");
    const auto path = "/tmp/.X11-unix/X" + std::to_string(number);
    ::unlink(path.c_str());
    ::setenv("DISPLAY", (":" + std::to_string(number)).c_str(), 1);
    const auto silent = readDisplay();
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    path.copy(addr.sun_path, sizeof addr.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 4), 0);
    const auto answering = readDisplay();
    ::close(fd);
    ::unlink(path.c_str());
    if (kept) ::setenv("DISPLAY", keptDisplay.c_str(), 1);
    else ::unsetenv("DISPLAY");
    EXPECT_FALSE(silent.connectError.empty());
    EXPECT_EQ(checkDisplay(silent).verdict, V::Fail);
    EXPECT_TRUE(answering.connectError.empty()) << answering.connectError;
    EXPECT_EQ(checkDisplay(answering).verdict, V::Pass);
}

TEST(DoctorFactsTest, TheClockAndTheQtPluginAreRead) {
    const auto clock = readClock();
    EXPECT_TRUE(clock.readable) << clock.readError;
    const auto plugin = readQtPlugin();
    EXPECT_TRUE(plugin.present) << plugin.pluginPath;  // this machine builds the console
    EXPECT_TRUE(plugin.loadError.empty()) << plugin.loadError;
    ::setenv("QT_QPA_PLATFORM_PLUGIN_PATH", "/nonexistent", 1);
    const auto missing = readQtPlugin();
    ::unsetenv("QT_QPA_PLATFORM_PLUGIN_PATH");
    EXPECT_FALSE(missing.present);
    EXPECT_EQ(checkQtPlatformPlugin(missing).verdict, V::Fail);
}

}  // namespace
}  // namespace sonolink::doctor
