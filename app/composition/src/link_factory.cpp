#include "sonolink/app/link_factory.h"

#include "sonolink/transport/sim/sim_link.h"
#if SONOLINK_HAVE_RDMA
#include "sonolink/transport/rdma/verbs_link.h"
#endif

namespace sonolink::app {

Result<LinkParts> makeLink(const LinkChoice& choice) {
    LinkParts parts;
    if (choice.backend == LinkChoice::Backend::Verbs) {
#if SONOLINK_HAVE_RDMA
        transport::rdma::VerbsLinkOptions options;
        options.address = choice.address;
        options.port = choice.port;
        options.slotBytes = choice.slotBytes;
        options.slotCount = choice.slotCount;
        options.busyPoll = choice.busyPoll;
        options.hugePages = choice.hugePages;
        auto link = transport::rdma::VerbsLink::create(options);
        if (!link) return fail(std::move(link.error()));
        parts.link = std::move(*link);
        return parts;
#else
        return fail(ErrorCode::Unimplemented, "this build has no RDMA verbs backend (libibverbs-dev/librdmacm-dev were missing at configure time)");
#endif
    }
    const bool inProcess = choice.backend == LinkChoice::Backend::SimInProcess;
    auto link = transport::sim::SimLink::create({inProcess ? "" : choice.name, choice.slotBytes, choice.slotCount, std::chrono::milliseconds(1000)});
    if (!link) return fail(std::move(link.error()));
    if (inProcess) {
        auto frontEnd = transport::sim::InProcessFrontEnd::start(**link, choice.frontEnd);
        if (!frontEnd) return fail(std::move(frontEnd.error()));
        parts.frontEnd = std::move(*frontEnd);
    }
    parts.link = std::move(*link);
    return parts;
}

}  // namespace sonolink::app
