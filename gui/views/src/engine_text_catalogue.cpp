// The engine's sentence patterns that engineText() translates (see engine_text.h): each the
// engine's English with %1..%n where fmt puts a value, grouped by the source that writes it.
// size: one table of sentences, one per engine message, that lupdate reads whole
#include "engine_text_catalogue.h"

#include <QtGlobal>

namespace sonolink::gui {

// long: the table itself (data, not logic): lupdate reads its entries in one initialiser
const std::vector<const char*>& engineTextCatalogue() {
    static const std::vector<const char*> all{
        // core/selftest/src/station_diagnostics.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "locked memory limit %1 MiB%2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", " (CAP_IPC_LOCK: it does not apply)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", ">= %1 MiB (the %2 MiB ring, its queues and work requests), unlimited, or CAP_IPC_LOCK"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "locked memory: unlimited"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the ring cannot be registered: raise the limit to at least %1 MiB. The package's "
                          "/etc/security/limits.d/99-sonolink-memlock.conf lifts it for the sonolink group: `sudo "
                          "adduser $USER sonolink`, then log in again (a build tree: install "
                          "installer/limits.d/99-sonolink-memlock.conf there; a systemd unit: LimitMEMLOCK=infinity)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 huge pages of %2 MiB, %3 free"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1; the ring does not use them (link.huge_pages off)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "none needed"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", ">= %1 free huge pages for the %2 MiB ring"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "this kernel has no huge pages"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "set link.huge_pages to false, or use a kernel with huge pages"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "reserve them: echo %1 > /proc/sys/vm/nr_hugepages (vm.nr_hugepages in /etc/sysctl.d to "
                          "keep it), or set link.huge_pages to false"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "every CPU at the \"performance\" governor"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no CPU frequency scaling visible (a virtual machine, or a fixed clock)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 CPUs %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "a clock that steps down between frames adds latency: cpupower frequency-set -g "
                          "performance (package linux-cpupower), or the BIOS's performance profile"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", ">= %1 MiB (warn under %2 MiB)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot tell the free space of %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "check that the folder exists and is on a mounted disk"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 MiB free in %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "free space there (send and delete finished recordings) or choose a folder on a larger disk"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 is writable"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writable"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot create the folder: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot write a file there: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot create the folder: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot write a file there: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "give the station user write access to the folder, or choose another in the configuration"),

        // core/selftest/src/hardware_diagnostics.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a GPU with ECC on (the live image beamformed there)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no usable GPU: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "this build has no CUDA module: the CPU beamformer images"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "check the NVIDIA driver (nvidia-smi) and the GPU's seating; the CPU beamformer images "
                          "meanwhile, slower"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "build with the CUDA toolkit for live imaging on the GPU; the CPU beamformer images "
                          "meanwhile, slower"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (ECC on)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (ECC off)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (ECC on), %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (ECC off), %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 device, driver %2: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 devices, driver %2: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "turn ECC on (nvidia-smi -e 1, then a reboot): a memory error on the GPU would change the "
                          "image unseen"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the port serving %1 ACTIVE, MTU 4096, error counters at 0"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the link"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no RDMA port: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 port %2 (%3)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 port %2 (%3), %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no RDMA port has %1 among its addresses; ports: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "give the NIC's interface the address in link.address (ip addr), or set link.address to "
                          "the NIC's; for Soft-RoCE, `rdma link add rxe0 type rxe netdev <interface>`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 port %2: %3, %4, %5, MTU %6; %7"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "rate not shown"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "error counters at 0"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "error counters: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the port is not up: check the cable or fibre, the transceiver and the switch port; `rdma "
                          "link` shows its state"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "set the interface's MTU to 9000 (RoCE: the RDMA MTU follows it up to 4096): smaller "
                          "packets cost throughput"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "errors on the port since it came up: check the cable, the transceiver and the switch; the "
                          "link BER test says whether payload bits suffered"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the link's NIC and the GPUs on one NUMA node"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 on node %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no NIC or GPU to place"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not visible (%1): one node, or not shown"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the NIC and the GPU sit on different NUMA nodes: every frame crosses the socket link; "
                          "move the GPU or the NIC to slots of one node, and pin the rx thread there (link.rx_cpu)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "each PTP clock within %1 us of the system clock"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no PTP clock: frame times come from the system clock"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (%2): offset not measured (%3)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (%2): offset not measured (%3); %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "install linuxptp (phc_ctl) and run as a user that may read the clock, so that its offset "
                          "can be measured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (%2): %3 us from the system clock"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 (%2): %3 us from the system clock; %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the PTP clock is not synchronised with the system clock: run phc2sys (linuxptp) so that "
                          "frame times agree with the front end's"),

        // app/composition/src/hardware_probe.cpp, hardware_facts.cpp, core/beamform/cuda/src/gpu_probe.cpp (the hardware facts above)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no CUDA driver is installed (libcuda.so.1 not found)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no usable CUDA device (%1; driver %2, runtime %3)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "device count is 0"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not built (nvcc was not found at configure time)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no RDMA device (no NIC and no rdma_rxe; the simulated link still works)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not built (libibverbs-dev/librdmacm-dev were not found at configure time)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "linuxptp's phc_ctl is not installed"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "phc_ctl: %1"),

        // core/engine/src/self_test_control.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no mismatch (March C-: stuck-at, transition, coupling and address-decoder faults)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and "
                          "written): %6 mismatches"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and "
                          "written): %6 mismatches; %7"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the first at %1 (slot %2, byte %3): wrote %4, read %5"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the host memory under the DMA ring is faulty: do not scan; run a full memory test "
                          "(memtest86+) and replace the module that fails"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no mismatch (March C- by CUDA kernels: stuck-at, transition and address-decoder faults)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "March C- over %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: not tested: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: not tested: %2; %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches; %6"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the first at byte %1: wrote %2, read %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the first at byte %1: wrote %2, read %3; %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics "
                          "(nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics "
                          "(nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced; %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "a GPU could not be tested: check the driver (nvidia-smi) and the GPU's free memory, then "
                          "connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "every slot written by the front end and checked in place; no slot whose errors repeat there"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked "
                          "in place: %6 blocks with errors; %7 slots whose errors repeat there%8"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked "
                          "in place: %6 blocks with errors; %7 slot whose errors repeat there%8"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", ": %1 (the rest of the ring: %2 of %3 blocks)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "slot %1: %2 of %3 blocks with errors (%4 bit errors)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "slot %1: %2 of %3 blocks with errors (%4 bit errors); %5"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the host memory under those slots, or the DMA path to them (the NIC, its PCIe slot, the "
                          "IOMMU), damages what the front end writes: do not scan; run a full memory test, reseat "
                          "the NIC, then connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the test's pattern did not reach every slot: a longer BER test (sonolink-cli selftest "
                          "--full) covers the ring"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "every configured node answers a C-ECHO"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 answered in %2 ms"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 answered in %2 ms; %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: nothing listening: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: rejected: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: timeout: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: TLS: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: other: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "C-ECHO to %1 nodes, %2 answered: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "studies wait in the queue until the node answers. Nothing listening: the PACS is down or "
                          "its address or port is wrong; rejected: our AE title (dicom.station_ae_title) is unknown "
                          "to it; timeout: a firewall or a busy PACS; TLS: the certificates, or TLS set for a plain "
                          "port"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "link BER test: PRBS-%1 until %2 bits show BER <= %3 at %4 % confidence"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "BER <= %1 at %2 % confidence (%3 bits, PRBS-%4), no block lost"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 "
                          "blocks lost: BER %7, under %8 at %9 % confidence"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 "
                          "blocks lost: BER %7, under %8 at %9 % confidence (stopped: out of time)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the link lost %1 blocks (%2 never arrived, %3 refused, %4 late): check the NIC's port "
                          "counters for drops and pause frames (sonolink-cli link diag), the switch between, then "
                          "connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "bit errors on the data path: check the cable or fibre and its connectors, the "
                          "transceivers and the NIC's port counters (sonolink-cli link diag), then connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "too few bits compared to show the limit: the link is slower than planned, or the test's "
                          "time (selftest.ber_timeout_s) too short"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the start-up %1 test failed: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1; the start-up %2 test failed: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cancelled by %1 while it ran; the steps after it did not run"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the self-test runs to its end"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "connect again to run the self-test (or override it, with a reason)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no self-test runs"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "this station has no self-test configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot run the self-test while %1: stop streaming first"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no self-test step is named '%1'"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no failed self-test blocks streaming"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "an override needs a reason (it is recorded with who gave it)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "starting the link BER test"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "running the link BER test"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the station's set-up"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "March C- over the GPU's memory"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "March C- over the DMA ring"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "C-ECHO to %1 nodes"),

        // core/engine/src/self_test_control.cpp (stationDiagnostics)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", " (this link's ring is not locked memory; a verbs link's would fail)"),

        // core/engine/src/engine_stats.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 of %2 bits compared"),

        // core/engine/src/element_check_control.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 dead (RMS %2 counts, %3 % of the median)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 dead (RMS %2 counts, %3 % of the median); %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 weak (RMS %2 counts, %3 % of the median)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 weak (RMS %2 counts, %3 % of the median); %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 noisy (SNR %2 dB, %3 dB under the median)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 noisy (SNR %2 dB, %3 dB under the median); %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, "
                          "each fits the other's place)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, "
                          "each fits the other's place); %5"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 uncorrelated with its neighbours (%2)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel %1 uncorrelated with its neighbours (%2); %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "no channel dead (RMS under %1 % of the median), weak (under %2 %), noisy (SNR %3 dB under "
                          "the median) or swapped (envelope correlation with its neighbours under %4 x the median)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the phantom's frames do not fit the configured geometry: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the front end sends another geometry than the one configured: check its firmware and the "
                          "acquisition settings"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 of %2 frames of the phantom arrived in %3 s"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 of %2 frames of the phantom arrived before the session ended"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the front end did not send its phantom's frames: check the link (sonolink-cli link diag), "
                          "then connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation "
                          "with the neighbours %5; %6 flagged"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation "
                          "with the neighbours %5; %6 flagged: %7"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not measured (identical frames)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "dead or weak: the element, its cable or its receive channel (swap the probe to tell "
                          "which); noisy: the channel's preamplifier or a ground fault; swapped: the probe's "
                          "connector or cable wiring. Do not scan with this probe"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "NCC of the log envelopes (60 dB) >= %1; each point target within %2 mm of the reference's "
                          "peak, its lateral and axial FWHM within %3 % of the reference's"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the image of the known phantom is not what it must be: check the probe's connector (the "
                          "element order), the probe definition and sound speed in the configuration, and the front "
                          "end's timing; then connect again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no reference image of the phantom: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no frame of the phantom arrived"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the %1 imager could not beamform the phantom: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8); %9"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "FAILED "),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the phantom beamformed on the %1 imager (%2 x %3 grid): NCC %4 with the reference; %5 "
                          "point targets, the farthest %6 mm from its place: %7"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 frames of the phantom"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "starting the element check"),

        // core/selftest/src/element_check.cpp, phantom_check.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "element check of %1 frames x %2 waves x %3 channels x %4 samples: at least one frame of "
                          "three channels is needed"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "element check: %1 samples for %2 frames x %3 waves x %4 channels x %5"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "phantom check: an image does not match its grid (live %1 x %2, reference %3 x %4)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "phantom check: the live image and the reference are on different grids"),

        // core/engine/src/engine.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "bringing the link up"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "start-up self-tests: none configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "link up, front end configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "link up, front end configured; streaming blocked: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end finished its session (%1 frames)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end reports: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot stream while %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1; an engineer may override it, with a reason (overrideSelfTest)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "live again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "image and cine held for review"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "disconnected"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no PACS queue is configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no archive is configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "queuing %1 for the archive"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 thread: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the engine needs a link backend"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the imaging settings are out of range"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "checking the acquisition geometry"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "starting the archive queue"),

        // core/engine/src/acquisition.cpp, display_pipeline.cpp, frame_capture.cpp, cpu_imager.cpp, work_queue.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "closed before streaming"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not streamed"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "acquisition thread: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "an exception that is not a std::exception"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a std::exception without a message"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the imager gave %1 x %2 pixels for a %3 x %4 grid"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "frame %1 not imaged: %2 (later failures are counted, not reported)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the display stopped: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "beamforming the phantom: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "frame %1: block %2 does not fit the configured geometry"),

        // core/engine/src/export_job.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the patient's name %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the referring physician's name %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "'%1' must be at most 64 characters (got %2)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "'%1' may not hold a backslash or a control character"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the Study Instance UID %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the body part '%1' is not a DICOM code string (up to 16 capitals, digits, '_' and spaces)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "live again: a new exam"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cancelled before it started"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "collecting the cine"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the cine is empty: stream first"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cancelled"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writing %1 frames"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writing %1 frames (the %2 before the last change of depth or view are left out)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "frame %1 of session %2 is no longer held (the cine keeps the last %3): freeze and export "
                          "again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the burnt-in picture has %1 bytes; the frame's %2 x %3 pixels need %4 (R, G, B each)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writing the image with its measurements burnt in"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writing the image"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "writing the measurement report (%1 measurements)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the image is written, its measurement report is not: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "queued for %1 as item %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "queued for %1 as items %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "item %1 is no longer in the queue"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cancelled; item %1 withdrawn from the queue"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cancelled; items %1 withdrawn from the queue"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "too late to cancel: already at %1"),

        // core/dicom/src/value_rules.cpp (what export_job.cpp and node_jobs.cpp say of a value)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "must be 1 to 16 characters (got %1)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "may hold only printable ASCII without backslash"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "must not be all spaces"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a UID has 1 to 64 characters (got %1)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "must be dot-separated numbers with no empty component"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "component '%1' is not a number (only digits and dots)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "component '%1' has a leading zero"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "must be at most 64 characters (got %1)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "may not hold a backslash or a control character"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "must be at most 16 characters (got %1)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "has more than three component groups (alphabetic=ideographic=phonetic)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "component group %1 has %2 characters; at most 64"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "component group %1 has more than five components"),

        // core/engine/src/recording_control.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "already recording"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "recording to %1"),

        // core/record/src/recorder.cpp, uff_stream_writer.cpp (a recording's failures)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the recorder fell behind: %1 frames were waiting for the disk; recording stopped before "
                          "frame %2 (nothing after it is recorded)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "recording: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot create %1: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no room to record beside %1: the disk is full"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot create group %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot create the data set"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot create /acquisition"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot write the new recording: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "starting the recording %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 exists already: record to a new file (nothing was overwritten)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot create recording %1 (directory missing, no permission, or it exists?)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "%1: the disk is full: %2 MB left, a frame needs %3 MB; the recording ends with its %4 "
                          "frames"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot grow the data set (disk full?)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: no frame to end"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: writing to the disk failed after frame %2: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the disk is full"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: writing frame %2 failed: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "(disk full?)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: cannot drop the partial frame"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: writing to the disk failed at close: %2"),

        // core/dicom/src/codecs.cpp (an exported object's write)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "cannot write %1: the disk is full (the object needs %2 bytes; nothing was written under "
                          "its name)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot write %1: %2 (nothing was written under its name)"),

        // core/engine/src/node_jobs.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no node '%1' is configured (dicom.nodes: %2)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no node '%1' is configured (dicom.nodes: none)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "its AE title '%1' %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the station's AE title '%1' %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "it has no host"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "its port %1 is not 1 to 65535"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "node '%1' cannot be asked: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "C-ECHO to %1 at %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "C-ECHO to %1 at %2: ok"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "asking %1 (%2:%3)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "querying the worklist"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 scheduled exam"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 scheduled exams"),

        // core/dicom/src/association.cpp (a PACS node's failures, in C-ECHO answers and job messages)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: cannot associate: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: cannot associate: %3 (if this port is TLS-only, set tls for this node)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "PACS %1 at %2: cannot associate: %3 (check the certificates: ours, the CA we trust for "
                          "the peer, and that the peer's certificate names %4 in its subjectAltName)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: TLS needs our %3 file, and none is configured"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: TLS %3 file %4 does not exist"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: TLS set-up, %3: %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: private key %3 does not match certificate %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: TLS set-up: cannot check the peer's name against '%3'"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: not associating: stopped on request"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot start the network: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: cannot attach the transport: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: %3: stopped on request"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "PACS %1 at %2: %3: no complete answer in time (the deadline of this step passed; the peer "
                          "is slow or stalled): %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "PACS %1 at %2: %3 failed: %4"),

        // core/ingest/src/stream_session.cpp, ingest_engine.cpp (the link's session)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end did not acknowledge Configure in time"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "configuring the front end"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end refused the configuration: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "streaming"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end %1; the link must be reset"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a ring of %1 slots cannot hold two frames of %2 blocks: use more or larger slots"),

        // transport/sim/src/sim_link.cpp, shared_region.cpp (the simulated link, host side)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end detached from the link"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end process (pid %1) is gone"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the front end (pid %1) sent no heartbeat for %2 s"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "stopped while waiting for the front end"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no front end attached to the in-process link"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no front end attached to /dev/shm/%1 within %2 ms (start sonolink-fe-sim --link-name %3)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "control channel to the front end is full: %1 not sent (front end not reading)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "credit lane full: the front end is not reading credits"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the link /dev/shm/%1 is in use by another host (PID %2): stop it, or give this one "
                          "another link name"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot create shared memory /dev/shm/%1: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the link needs %1 MiB of shared memory (/dev/shm/%2: %3 slots of %4 KiB and its queues) "
                          "and /dev/shm has %5 MiB free (%6): make the ring smaller (link.slot_count, "
                          "link.slot_size_bytes) or /dev/shm larger (Docker: --shm-size)"),

        // app/doctor/src/doctor_checks.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the group '%1' is missing: `sudo apt install --reinstall sonolink` creates it, then `sudo "
                          "adduser $USER %2` and log in again"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "`sudo adduser $USER %1`, then log out and in again (the package's udev rule gives the "
                          "group /dev/infiniband; `sudo udevadm trigger --subsystem-match=infiniband_verbs` applies "
                          "it without a reboot)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the device nodes are not the group's yet: `sudo udevadm trigger "
                          "--subsystem-match=infiniband_verbs`, or reboot"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "an RDMA device whose /dev/infiniband nodes this user can open"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "none needed (the link is simulated)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no RDMA device"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "RDMA devices: %1; cannot open %2; group '%3': %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "RDMA devices: %1; %2 device nodes open; group '%3': %4"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "missing"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a member"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "not a member"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "this build has no RDMA (rdma-core was not found)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the configuration asks for a verbs link: use a build with rdma-core (libibverbs-dev, "
                          "librdmacm-dev), or link.backend \"sim\""),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "load the NIC's driver (for a ConnectX: `sudo modprobe mlx5_ib`), or for Soft-RoCE `sudo "
                          "rdma link add rxe0 type rxe netdev <interface>`; `sonolink-cli probe` lists what the "
                          "station has"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "Qt's xcb platform plugin present, and every library it needs"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 is missing"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "`sudo apt install --reinstall libqt6gui6` (it ships the xcb plugin)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 does not load: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "install the library the error names (`apt-file search <library>` tells its package), or "
                          "`sudo apt install --reinstall libqt6gui6`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 loads"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a display for the console ($DISPLAY or $WAYLAND_DISPLAY) that answers"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no display ($DISPLAY and $WAYLAND_DISPLAY are not set)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the console (`sonolink`) needs one: run it from the desktop session, or on a virtual "
                          "display with `xvfb-run -a sonolink`; `sonolink-cli` and its headless demo need none"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 does not answer: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "start the display server (log in to the desktop), or `unset DISPLAY WAYLAND_DISPLAY` for "
                          "the headless tools"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "DISPLAY=%1 answers"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "WAYLAND_DISPLAY=%1 answers"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "a font that covers Chinese (zh), for the console in Chinese"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "fontconfig could not be asked: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "`sudo apt install fontconfig fonts-noto-cjk`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no font covers Chinese: the console's Chinese text would show as boxes"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "`sudo apt install fonts-noto-cjk` (or fonts-wqy-microhei)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 families, e.g. %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no file: the built-in defaults"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "every key valid"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "correct each key named, then `sonolink-cli config check %1`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1: valid"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no PACS node is configured: studies cannot leave this station"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "add the hospital's PACS to dicom.nodes (or in the console: Settings…, PACS), then "
                          "`sonolink-cli dicom echo --config FILE --node NAME`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 of %2 answered: %3"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "studies wait in the queue until the node answers. Nothing listening: the PACS is down, or "
                          "its address or port is wrong; rejected: the PACS does not know our AE title "
                          "(dicom.station_ae_title); timeout: a firewall or a busy PACS; TLS: the certificates, or "
                          "TLS asked of a plain port. Try again with `sonolink-cli dicom echo --config FILE --node "
                          "NAME`"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the system clock synchronised (NTP or PTP), its error bound within %1 ms"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "`sudo timedatectl set-ntp true` (systemd-timesyncd), or `sudo apt install chrony`; "
                          "`timedatectl` shows the state. Study, series and frame times come from this clock"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the clock's state could not be read: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the system clock is not synchronised"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "synchronised, its error bound %1 ms"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "synchronised, error bound %1 ms"),

        // app/doctor/src/doctor_facts.cpp (why a display, fontconfig or the Qt plugin could not be reached)
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "'%1' is not a display name (host:number)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "the socket's path is too long"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "no address"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "XDG_RUNTIME_DIR is not set"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "fc-list not found (fontconfig is not installed)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "fc-list: %1"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "dlopen failed"),
        // app/gui/console_start.cpp, core/record (a recording to review), core/beamform/src/acquisition_geometry.cpp
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "SonoLink is already running on this station (process %1): use its window. Two consoles would contend for the link, the recordings "
                          "and the PACS queue."),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "cannot take the console's lock %1: %2"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "permission denied"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "making %1 (%2)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 is not an HDF5 file"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "opening %1 to review it"),
        // app/report: the QA report's title
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "SonoLink start-up self-test"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "channel data of %1 waves x %2 channels x %3 samples is empty"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 element positions for %2 channels"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "%1 transmit angles for %2 waves"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "element %1: position %2 m is no number"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText",
                          "the %1 elements all lie at x = %2 m: an aperture of no width cannot be imaged (the probe's element positions are missing)"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "wave %1: steering angle %2 rad is not an angle within +-90 degrees"),
        QT_TRANSLATE_NOOP("sonolink::gui::EngineText", "sampling rate %1 Hz and sound speed %2 m/s must be positive"),
    };
    return all;
}

}  // namespace sonolink::gui
