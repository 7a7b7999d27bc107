// Jobs that ask a configured PACS node something, on the `queries` thread (a slow node holds up
// no export): the scheduled exams (Modality Worklist C-FIND, audited 110112, handed back as
// facade values) and verification (C-ECHO: can we reach it at all).
#include <algorithm>

#include <fmt/format.h>

#include "engine_impl.h"
#include "sonolink/dicom/pacs_client.h"
#include "sonolink/dicom/value_rules.h"
#include "sonolink/dicom/worklist.h"

namespace sonolink::engine {
namespace {

ScheduledExam scheduledExamOf(const dicom::WorklistItem& i) {
    ScheduledExam s;
    s.exam.patient = {i.patient.name, i.patient.id, i.patient.birthDate, i.patient.sex};
    s.exam.studyInstanceUid = i.studyInstanceUid;
    s.exam.accessionNumber = i.accessionNumber;
    s.exam.referringPhysician = i.referringPhysician;
    s.exam.studyDescription = i.requestedProcedureDescription;
    s.exam.requestedProcedureId = i.requestedProcedureId;
    s.exam.requestedProcedureDescription = i.requestedProcedureDescription;
    s.exam.scheduledProcedureStepId = i.scheduledProcedureStepId;
    s.exam.scheduledProcedureStepDescription = i.scheduledProcedureStepDescription;
    s.scheduledStartDate = i.scheduledStartDate;
    s.scheduledStartTime = i.scheduledStartTime;
    s.scheduledStationAeTitle = i.scheduledStationAeTitle;
    s.modality = i.modality;
    s.characterSetAssumed = i.characterSetAssumed;
    return s;
}

std::string describe(const dicom::WorklistQuery& q) {
    return fmt::format("Modality Worklist: date {}, modality {}, station {}", q.date.empty() ? "any" : q.date, q.modality.empty() ? "any" : q.modality,
                       q.stationAeTitle.empty() ? "any" : q.stationAeTitle);
}

// The configured node called name, or why there is none (the configured names listed).
Result<const dicom::Destination*> nodeNamed(const std::vector<dicom::Destination>& destinations, const std::string& name) {
    const auto node = std::find_if(destinations.begin(), destinations.end(), [&](const auto& d) { return d.name == name; });
    if (node != destinations.end()) return &*node;
    std::string names;
    for (const auto& d : destinations) names += (names.empty() ? "" : ", ") + d.name;
    return fail(ErrorCode::NotFound, fmt::format("no node '{}' is configured (dicom.nodes: {})", name, names.empty() ? "none" : names));
}

}  // namespace

JobId Engine::Impl::postQuery(std::function<void(JobId)> job) {
    const JobId id = jobsDesk.newQuery();
    queries->post([id, job = std::move(job)] { job(id); });
    return id;
}

JobId Engine::queryWorklist(WorklistQuery query) {
    return impl_->postQuery([impl = impl_.get(), query = std::move(query)](JobId id) { impl->runWorklistQuery(id, query); });
}

JobId Engine::verifyNode(std::string node) {
    return impl_->postQuery([impl = impl_.get(), node = std::move(node)](JobId id) { impl->runNodeVerification(id, node); });
}

JobId Engine::verifyNode(NodeToVerify node) {
    return impl_->postQuery([impl = impl_.get(), node = std::move(node)](JobId id) {
        auto settings = impl->config.dicom.forwarder.association;
        if (!node.callingAeTitle.empty()) settings.callingAeTitle = node.callingAeTitle;
        const auto use = [](std::string& kept, const std::string& given) {
            if (!given.empty()) kept = given;
        };
        use(settings.tls.certificateFile, node.tlsCertificate);
        use(settings.tls.privateKeyFile, node.tlsPrivateKey);
        use(settings.tls.trustedCertificatesFile, node.tlsTrustedCertificates);
        std::string problem;
        if (auto p = dicom::aeTitleProblem(node.aeTitle); !p.empty()) problem = fmt::format("its AE title '{}' {}", node.aeTitle, p);
        else if (auto c = dicom::aeTitleProblem(settings.callingAeTitle); !c.empty())
            problem = fmt::format("the station's AE title '{}' {}", settings.callingAeTitle, c);
        else if (node.host.empty()) problem = "it has no host";
        else if (node.port < 1 || node.port > 65535) problem = fmt::format("its port {} is not 1 to 65535", node.port);
        if (!problem.empty()) {
            return impl->jobFinish(id, JobStatus::Failed, 0, fmt::format("node '{}' cannot be asked: {}", node.name, problem), JobKind::NodeVerification,
                                   ErrorCode::InvalidArgument);
        }
        impl->runEcho(id, {node.aeTitle, node.host, node.port, node.tls}, settings);
    });
}

void Engine::Impl::runNodeVerification(JobId id, const std::string& name) {
    auto node = nodeNamed(config.dicom.forwarder.destinations, name);
    if (!node) return jobFinish(id, JobStatus::Failed, 0, node.error().message(), JobKind::NodeVerification, node.error().code());
    runEcho(id, (*node)->node, config.dicom.forwarder.association);
}

void Engine::Impl::runEcho(JobId id, const dicom::PacsNode& n, const dicom::AssociationSettings& settings) {
    constexpr auto kind = JobKind::NodeVerification;
    const auto where = fmt::format("{} at {}:{}{}", n.aeTitle, n.host, n.port, n.tls ? " (TLS)" : "");
    jobUpdate(id, JobStatus::Running, 0.1, "C-ECHO to " + where, kind);
    if (auto ok = dicom::echo(n, settings); !ok) {
        return jobFinish(id, JobStatus::Failed, 1, ok.error().message(), kind, ok.error().code());
    }
    jobFinish(id, JobStatus::Done, 1, "C-ECHO to " + where + ": ok", kind);
}

void Engine::Impl::runWorklistQuery(JobId id, const WorklistQuery& query) {
    constexpr auto kind = JobKind::WorklistQuery;
    auto found = nodeNamed(config.dicom.forwarder.destinations, query.node);
    if (!found) return jobFinish(id, JobStatus::Failed, 0, found.error().message(), kind, found.error().code());
    const auto* node = *found;
    jobUpdate(id, JobStatus::Running, 0.1, fmt::format("asking {} ({}:{})", node->node.aeTitle, node->node.host, node->node.port), kind);
    const dicom::WorklistQuery q{query.date, query.modality, query.stationAeTitle};
    auto items = dicom::queryWorklist(node->node, config.dicom.forwarder.association, q);
    if (audit) {
        const auto failure = items ? std::nullopt : std::optional<Error>(items.error());
        const auto event = dicom::queryEvent(config.dicom.stationAeTitle, node->node, describe(q), failure, items ? items->size() : 0);
        if (auto ok = audit->record(event); !ok) report(ErrorOrigin::Pacs, Severity::Warning, ok.error(), "audit trail");
    }
    if (!items) {
        report(ErrorOrigin::Pacs, Severity::Warning, Error(items.error()).addContext("querying the worklist"), query.node);
        return jobFinish(id, JobStatus::Failed, 1, items.error().message(), kind, items.error().code());
    }
    WorklistResult result{id, {}};
    for (const auto& i : *items) result.exams.push_back(scheduledExamOf(i));
    emit(result);
    jobFinish(id, JobStatus::Done, 1, fmt::format("{} scheduled exam{}", items->size(), items->size() == 1 ? "" : "s"), kind);
}

}  // namespace sonolink::engine
