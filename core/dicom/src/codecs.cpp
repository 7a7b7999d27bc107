#include "codecs.h"

#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmdata/dcrleerg.h>
#include <dcmtk/dcmimage/diregist.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/dcmjpls/djencode.h>
#include <dcmtk/oflog/oflog.h>

#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "sonolink/util/durable_file.h"

namespace sonolink::dicom {

void setUpDcmtk() {
    static std::once_flag once;
    std::call_once(once, [] {
        OFLog::configure(OFLogger::ERROR_LOG_LEVEL);  // ours say what failed; DCMTK's notes are noise
        ::setenv("TCP_NODELAY", "1", /*overwrite=*/0);
    });
}

void registerCodecs() {
    setUpDcmtk();
    static std::once_flag once;
    std::call_once(once, [] {
        DcmRLEEncoderRegistration::registerCodecs();
        DcmRLEDecoderRegistration::registerCodecs();
        DJLSEncoderRegistration::registerCodecs();
        DJLSDecoderRegistration::registerCodecs();
    });
}

Status saveEncoded(DcmFileFormat& file, const std::string& path, Compression compression) {
    registerCodecs();
    const E_TransferSyntax syntax = DcmXfer(transferSyntaxUid(compression).c_str()).getXfer();
    DcmDataset& ds = *file.getDataset();
    if (compression != Compression::None && (ds.chooseRepresentation(syntax, nullptr).bad() || !ds.canWriteXfer(syntax))) {
        return fail(ErrorCode::InvalidArgument, fmt::format("cannot encode {} as {}", path, DcmXfer(syntax).getXferName()));
    }
    if (compression == Compression::None && ds.chooseRepresentation(syntax, nullptr).bad()) {
        return fail(ErrorCode::InvalidArgument, fmt::format("cannot decode the pixel data for {}", path));
    }
    return saveFileSafely(file, path, syntax);
}

Status saveFileSafely(DcmFileFormat& file, const std::string& path, int syntax) {
    const auto xfer = static_cast<E_TransferSyntax>(syntax);
    const std::string temp = fmt::format("{}.{}.part", path, ::getpid());
    // Created 0600 before DCMTK opens it ("wb" keeps the mode of a file that exists): every
    // object we write names a patient.
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return fail(ioError("create", temp, errno));
    ::close(fd);
    errno = 0;
    if (auto c = file.saveFile(temp.c_str(), xfer); c.bad()) {
        const int e = errno;
        // DCMTK words a full disk as an I/O error; the free space tells.
        const auto needed = static_cast<std::uint64_t>(file.calcElementLength(xfer, EET_ExplicitLength));
        struct statvfs disk {};
        const bool full = e == ENOSPC || e == EDQUOT ||
                          (::statvfs(temp.c_str(), &disk) == 0 && static_cast<std::uint64_t>(disk.f_bavail) * disk.f_frsize < needed + (64u << 10));
        ::unlink(temp.c_str());
        if (full) {
            return fail(ErrorCode::ResourceExhausted, fmt::format("cannot write {}: the disk is full (the object needs {} bytes; nothing was "
                                                                  "written under its name)",
                                                                  path, needed));
        }
        return fail(ErrorCode::DataLoss, fmt::format("cannot write {}: {} (nothing was written under its name)", path, c.text()));
    }
    if (auto ok = syncFile(temp); !ok) {
        ::unlink(temp.c_str());
        return ok;
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        ::unlink(temp.c_str());
        return fail(ioError("rename into", path, e));
    }
    return syncDirectoryOf(path);
}

}  // namespace sonolink::dicom
