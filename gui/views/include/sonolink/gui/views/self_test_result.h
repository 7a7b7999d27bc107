// SelfTestResult: one start-up self-test step's outcome as the views show it (the wizard's row,
// its details): the verdict, the figures in one line, the limit it was held to, what to do, and
// the step's own numbers (the BER and its bound; the element check's map). The bridge makes these
// from the engine's SelfTestStep events; views never see the engine.
// Thread contract: a plain value: copy freely.
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QtGlobal>

namespace sonolink::gui {

struct ElementResult {
    double rms = 0;    // ADC counts
    double snrDb = 0;  // 0: not measured
    double neighbourCorrelation = 0;
    QString fault;  // "ok", "dead", "weak", "noisy", "swapped", "uncorrelated"
    int swappedWith = -1;
};

struct SelfTestResult {
    QString step;     // "link BER", "station: memlock limit"
    QString verdict;  // "pass", "warn", "fail"
    QString figures;
    QString limit;
    QString fix;                  // empty when it passed
    bool blocksStreaming = true;  // a failure of this step blocks streaming
    double seconds = 0;
    quint64 bitsChecked = 0;  // the link BER test's
    quint64 bitErrors = 0;
    quint64 lockLosses = 0;
    quint64 crcErrors = 0;
    double ber = 0;
    double berUpperBound = 0;
    QList<ElementResult> elements;  // the element check's, by channel
};

}  // namespace sonolink::gui

Q_DECLARE_METATYPE(sonolink::gui::SelfTestResult)
