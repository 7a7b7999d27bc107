#include "codecs.h"

#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmdata/dcrleerg.h>
#include <dcmtk/dcmimage/diregist.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/dcmjpls/djencode.h>

#include <mutex>

namespace sonolink::dicom {

void registerCodecs() {
    static std::once_flag once;
    std::call_once(once, [] {
        DcmRLEEncoderRegistration::registerCodecs();
        DcmRLEDecoderRegistration::registerCodecs();
        DJLSEncoderRegistration::registerCodecs();
        DJLSDecoderRegistration::registerCodecs();
    });
}

}  // namespace sonolink::dicom
