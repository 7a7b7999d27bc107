// Helpers of the DICOM tests: run a command and keep its output, a sample exam context (a
// Chinese patient name, UIDs from the generator), and a small US Image for the queue's tests.
#pragma once

#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "sonolink/dicom/uid_generator.h"
#include "sonolink/dicom/us_image_writer.h"

namespace sonolink::dicom {

inline std::string run(const std::string& command) {
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
    if (!pipe) return "cannot run " + command;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe.get())) out += buffer.data();
    return out;
}

// dciodvfy's report on file; one that says "Error" when dciodvfy itself is missing, so no check
// passes for want of the tool.
inline std::string dciodvfy(const std::string& file) {
    if (run("command -v dciodvfy").find("dciodvfy") == std::string::npos) return "Error: dciodvfy (dicom3tools) is not installed";
    return run("dciodvfy " + file);
}

inline InstanceContext sampleContext(const UidGenerator& uids) {
    InstanceContext c;
    c.patient = {"Wang^Xiaoming=王^小明", "SL-0001", "19800102", "M"};
    c.study = {uids.next(), "S1", "ACC-42", "20261130", "101500", "Li^Na", "Abdomen"};
    c.series = {uids.next(), 1, "ABDOMEN", {}};
    c.equipment = {"SonoLink", "SonoLink Workstation", "SN-0001", "0.1.0", "SL-STATION-1"};
    c.sopInstanceUid = uids.next();
    c.contentDate = "20261130";
    c.contentTime = "101501";
    return c;
}

// An 8 x 8 US Image of a new study, every pixel n, written to path; its SOP Instance UID, or ""
// when it could not be written.
inline std::string writeSmallUsImage(const std::string& path, const UidGenerator& uids, int n) {
    UsImageObject o;
    o.context.patient = {"Test^Queue", "Q-1", "", ""};
    o.context.study = {uids.next(), "1", "", "20261130", "120000", "", ""};
    o.context.series = {uids.next(), 1, "ABDOMEN", {}};
    o.context.sopInstanceUid = uids.next();
    o.frame = {8, 8, std::vector<std::uint8_t>(64, static_cast<std::uint8_t>(n)), 0.01, 0.01, "ABDOMINAL", 1, 0, 0, false, {}};
    return writeUsImage(path, o) ? o.context.sopInstanceUid : std::string();
}

}  // namespace sonolink::dicom
