// Worklist query jobs (the `queries` thread): the configured node asked for the scheduled exams
// (Modality Worklist C-FIND), the query audited (110112), the exams handed back as facade values.
#include <algorithm>

#include <fmt/format.h>

#include "engine_impl.h"
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

}  // namespace

JobId Engine::queryWorklist(WorklistQuery query) {
    JobId id = 0;
    {
        std::lock_guard lock(impl_->jobsMutex);
        id = impl_->nextJob++;
    }
    impl_->queries->post([impl = impl_.get(), id, query = std::move(query)] { impl->runWorklistQuery(id, query); });
    return id;
}

void Engine::Impl::runWorklistQuery(JobId id, const WorklistQuery& query) {
    constexpr auto kind = JobKind::WorklistQuery;
    const auto& destinations = config.dicom.forwarder.destinations;
    const auto node = std::find_if(destinations.begin(), destinations.end(), [&](const auto& d) { return d.name == query.node; });
    if (node == destinations.end()) {
        std::string names;
        for (const auto& d : destinations) names += (names.empty() ? "" : ", ") + d.name;
        return jobFinish(id, JobStatus::Failed, 0, fmt::format("no node '{}' is configured (dicom.nodes: {})", query.node, names.empty() ? "none" : names), kind);
    }
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
        return jobFinish(id, JobStatus::Failed, 1, items.error().message(), kind);
    }
    WorklistResult result{id, {}};
    for (const auto& i : *items) result.exams.push_back(scheduledExamOf(i));
    emit(result);
    jobFinish(id, JobStatus::Done, 1, fmt::format("{} scheduled exam{}", items->size(), items->size() == 1 ? "" : "s"), kind);
}

}  // namespace sonolink::engine
