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

#include <cstdlib>
#include <mutex>

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
    if (auto c = file.saveFile(path.c_str(), syntax); c.bad()) return fail(ErrorCode::DataLoss, fmt::format("cannot write {}: {}", path, c.text()));
    return {};
}

}  // namespace sonolink::dicom
