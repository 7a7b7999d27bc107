"""Simplified Chinese for the engine's sentence patterns (gui/views/src/engine_text_catalogue.cpp), keyed by the pattern."""

ENGINE_ZH = {
    # core/selftest/src/station_diagnostics.cpp
    "locked memory limit %1 MiB%2":
        "锁定内存上限 %1 MiB%2",
    " (CAP_IPC_LOCK: it does not apply)":
        "（具有 CAP_IPC_LOCK：该上限不适用）",
    ">= %1 MiB (the %2 MiB ring, its queues and work requests), unlimited, or CAP_IPC_LOCK":
        ">= %1 MiB（%2 MiB 的环形缓冲区及其队列和工作请求），或不限，或具有 CAP_IPC_LOCK",
    "locked memory: unlimited":
        "锁定内存：不限",
    "the ring cannot be registered: raise the limit to at least %1 MiB. The package's /etc/security/limits.d/99-sonolink-memlock.conf lifts it for the sonolink group: `sudo adduser $USER sonolink`, then log in again (a build tree: install installer/limits.d/99-sonolink-memlock.conf there; a systemd unit: LimitMEMLOCK=infinity)":
        "环形缓冲区无法注册：请将该上限提高到至少 %1 MiB。软件包的 /etc/security/limits.d/99-sonolink-memlock.conf 为 sonolink 组解除此限制：执行 `sudo adduser $USER sonolink`，然后重新登录（构建目录：在那里安装 installer/limits.d/99-sonolink-memlock.conf；systemd 单元：LimitMEMLOCK=infinity）",
    "%1 huge pages of %2 MiB, %3 free":
        "%1 个 %2 MiB 的大页，%3 个空闲",
    "%1; the ring does not use them (link.huge_pages off)":
        "%1；环形缓冲区不使用大页（link.huge_pages 已关闭）",
    "none needed":
        "无需",
    ">= %1 free huge pages for the %2 MiB ring":
        "为 %2 MiB 的环形缓冲区提供 >= %1 个空闲大页",
    "this kernel has no huge pages":
        "此内核不支持大页",
    "set link.huge_pages to false, or use a kernel with huge pages":
        "将 link.huge_pages 设为 false，或使用支持大页的内核",
    "reserve them: echo %1 > /proc/sys/vm/nr_hugepages (vm.nr_hugepages in /etc/sysctl.d to keep it), or set link.huge_pages to false":
        "预留大页：echo %1 > /proc/sys/vm/nr_hugepages（在 /etc/sysctl.d 中设置 vm.nr_hugepages 使其持久生效），或将 link.huge_pages 设为 false",
    "every CPU at the \"performance\" governor":
        "每个 CPU 均使用“performance”调频策略",
    "no CPU frequency scaling visible (a virtual machine, or a fixed clock)":
        "未见 CPU 调频（虚拟机或固定时钟）",
    "%1 CPUs %2":
        "%1 个 CPU 为 %2",
    "a clock that steps down between frames adds latency: cpupower frequency-set -g performance (package linux-cpupower), or the BIOS's performance profile":
        "帧间降频会增加延迟：执行 cpupower frequency-set -g performance（软件包 linux-cpupower），或使用 BIOS 的性能模式",
    ">= %1 MiB (warn under %2 MiB)":
        ">= %1 MiB（低于 %2 MiB 时警告）",
    "cannot tell the free space of %1":
        "无法获知 %1 的可用空间",
    "check that the folder exists and is on a mounted disk":
        "请检查该文件夹是否存在且位于已挂载的磁盘上",
    "%1 MiB free in %2":
        "%2 中可用 %1 MiB",
    "free space there (send and delete finished recordings) or choose a folder on a larger disk":
        "请在该处释放空间（发送并删除已完成的录制数据），或选择位于更大磁盘上的文件夹",
    "%1 is writable":
        "%1 可写",
    "writable":
        "可写",
    "%1: cannot create the folder: %2":
        "%1：无法创建该文件夹：%2",
    "%1: cannot write a file there: %2":
        "%1：无法在该处写入文件：%2",
    "cannot create the folder: %1":
        "无法创建该文件夹：%1",
    "cannot write a file there: %1":
        "无法在该处写入文件：%1",
    "give the station user write access to the folder, or choose another in the configuration":
        "请授予工作站用户对该文件夹的写权限，或在配置中另选一个文件夹",
    # core/selftest/src/hardware_diagnostics.cpp
    "a GPU with ECC on (the live image beamformed there)":
        "一块开启 ECC 的 GPU（实时图像在其上进行波束合成）",
    "no usable GPU: %1":
        "无可用 GPU：%1",
    "this build has no CUDA module: the CPU beamformer images":
        "此版本不含 CUDA 模块：由 CPU 波束合成器成像",
    "check the NVIDIA driver (nvidia-smi) and the GPU's seating; the CPU beamformer images meanwhile, slower":
        "请检查 NVIDIA 驱动（nvidia-smi）以及 GPU 是否插稳；在此期间由 CPU 波束合成器成像，速度较慢",
    "build with the CUDA toolkit for live imaging on the GPU; the CPU beamformer images meanwhile, slower":
        "请使用 CUDA 工具包构建，以便在 GPU 上实时成像；在此期间由 CPU 波束合成器成像，速度较慢",
    "%1 (ECC on)":
        "%1（ECC 开启）",
    "%1 (ECC off)":
        "%1（ECC 关闭）",
    "%1 (ECC on), %2":
        "%1（ECC 开启），%2",
    "%1 (ECC off), %2":
        "%1（ECC 关闭），%2",
    "%1 device, driver %2: %3":
        "%1 个设备，驱动 %2：%3",
    "%1 devices, driver %2: %3":
        "%1 个设备，驱动 %2：%3",
    "turn ECC on (nvidia-smi -e 1, then a reboot): a memory error on the GPU would change the image unseen":
        "请开启 ECC（nvidia-smi -e 1，然后重启）：GPU 上的内存错误会在不被察觉的情况下改变图像",
    "the port serving %1 ACTIVE, MTU 4096, error counters at 0":
        "%1 所用的端口处于 ACTIVE 状态，MTU 4096，错误计数器为 0",
    "the link":
        "链路",
    "no RDMA port: %1":
        "无 RDMA 端口：%1",
    "%1 port %2 (%3)":
        "%1 端口 %2（%3）",
    "%1 port %2 (%3), %4":
        "%1 端口 %2（%3），%4",
    "no RDMA port has %1 among its addresses; ports: %2":
        "没有任何 RDMA 端口拥有地址 %1；端口：%2",
    "give the NIC's interface the address in link.address (ip addr), or set link.address to the NIC's; for Soft-RoCE, `rdma link add rxe0 type rxe netdev <interface>`":
        "请为 NIC 的接口配置 link.address 中的地址（ip addr），或将 link.address 设为该 NIC 的地址；Soft-RoCE 则执行 `rdma link add rxe0 type rxe netdev <interface>`",
    "%1 port %2: %3, %4, %5, MTU %6; %7":
        "%1 端口 %2：%3，%4，%5，MTU %6；%7",
    "rate not shown":
        "速率未显示",
    "error counters at 0":
        "错误计数器为 0",
    "error counters: %1":
        "错误计数器：%1",
    "the port is not up: check the cable or fibre, the transceiver and the switch port; `rdma link` shows its state":
        "端口未启用：请检查电缆或光纤、光模块和交换机端口；`rdma link` 可显示其状态",
    "set the interface's MTU to 9000 (RoCE: the RDMA MTU follows it up to 4096): smaller packets cost throughput":
        "请将接口的 MTU 设为 9000（RoCE：RDMA MTU 随之提高，最大 4096）：较小的数据包会降低吞吐量",
    "errors on the port since it came up: check the cable, the transceiver and the switch; the link BER test says whether payload bits suffered":
        "端口启用以来出现错误：请检查电缆、光模块和交换机；链路误码率测试可判断有效载荷的比特是否受损",
    "the link's NIC and the GPUs on one NUMA node":
        "链路的 NIC 与 GPU 位于同一 NUMA 节点",
    "%1 on node %2":
        "%1 位于节点 %2",
    "no NIC or GPU to place":
        "没有需要定位的 NIC 或 GPU",
    "not visible (%1): one node, or not shown":
        "不可见（%1）：只有一个节点，或系统未显示",
    "the NIC and the GPU sit on different NUMA nodes: every frame crosses the socket link; move the GPU or the NIC to slots of one node, and pin the rx thread there (link.rx_cpu)":
        "NIC 与 GPU 位于不同的 NUMA 节点：每一帧都要跨越处理器插槽间的互连；请将 GPU 或 NIC 移到同一节点的插槽上，并将 rx 线程绑定到该节点（link.rx_cpu）",
    "each PTP clock within %1 us of the system clock":
        "每个 PTP 时钟与系统时钟的偏差在 %1 us 以内",
    "no PTP clock: frame times come from the system clock":
        "无 PTP 时钟：帧时间取自系统时钟",
    "%1 (%2): offset not measured (%3)":
        "%1（%2）：未测得偏差（%3）",
    "%1 (%2): offset not measured (%3); %4":
        "%1（%2）：未测得偏差（%3）；%4",
    "install linuxptp (phc_ctl) and run as a user that may read the clock, so that its offset can be measured":
        "请安装 linuxptp（phc_ctl），并以可读取该时钟的用户运行，以便测量其偏差",
    "%1 (%2): %3 us from the system clock":
        "%1（%2）：与系统时钟相差 %3 us",
    "%1 (%2): %3 us from the system clock; %4":
        "%1（%2）：与系统时钟相差 %3 us；%4",
    "the PTP clock is not synchronised with the system clock: run phc2sys (linuxptp) so that frame times agree with the front end's":
        "PTP 时钟未与系统时钟同步：请运行 phc2sys（linuxptp），使帧时间与前端一致",
    # app/composition/src/hardware_probe.cpp, hardware_facts.cpp, core/beamform/cuda/src/gpu_probe.cpp (the hardware facts above)
    "no CUDA driver is installed (libcuda.so.1 not found)":
        "未安装 CUDA 驱动（找不到 libcuda.so.1）",
    "no usable CUDA device (%1; driver %2, runtime %3)":
        "无可用 CUDA 设备（%1；驱动 %2，运行时 %3）",
    "device count is 0":
        "设备数为 0",
    "not built (nvcc was not found at configure time)":
        "未构建（配置时未找到 nvcc）",
    "no RDMA device (no NIC and no rdma_rxe; the simulated link still works)":
        "无 RDMA 设备（没有 NIC，也没有 rdma_rxe；模拟链路仍可使用）",
    "not built (libibverbs-dev/librdmacm-dev were not found at configure time)":
        "未构建（配置时未找到 libibverbs-dev/librdmacm-dev）",
    "linuxptp's phc_ctl is not installed":
        "未安装 linuxptp 的 phc_ctl",
    "phc_ctl: %1":
        "phc_ctl 出错：%1",
    # core/engine/src/self_test_control.cpp
    "no mismatch (March C-: stuck-at, transition, coupling and address-decoder faults)":
        "无不匹配（March C-：检测固定型、跳变、耦合和地址译码故障）",
    "March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and written): %6 mismatches":
        "对 DMA 环形缓冲区执行 March C-，%1 MiB（%2 个 %3 KiB 的槽位），用时 %4 s（读写 %5 GB/s）：%6 处不匹配",
    "March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and written): %6 mismatches; %7":
        "对 DMA 环形缓冲区执行 March C-，%1 MiB（%2 个 %3 KiB 的槽位），用时 %4 s（读写 %5 GB/s）：%6 处不匹配；%7",
    "the first at %1 (slot %2, byte %3): wrote %4, read %5":
        "第一处位于 %1（槽位 %2，字节 %3）：写入 %4，读出 %5",
    "the host memory under the DMA ring is faulty: do not scan; run a full memory test (memtest86+) and replace the module that fails":
        "DMA 环形缓冲区所在的主机内存有故障：请勿扫描；请运行完整的内存测试（memtest86+）并更换出错的内存条",
    "no mismatch (March C- by CUDA kernels: stuck-at, transition and address-decoder faults)":
        "无不匹配（由 CUDA 内核执行 March C-：检测固定型、跳变和地址译码故障）",
    "March C- over %1":
        "March C- 测试：%1",
    "%1: not tested: %2":
        "%1：未测试：%2",
    "%1: not tested: %2; %3":
        "%1：未测试：%2；%3",
    "%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches":
        "%1：%2 MiB，用时 %3 s（读写 %4 GB/s），%5 处不匹配",
    "%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches; %6":
        "%1：%2 MiB，用时 %3 s（读写 %4 GB/s），%5 处不匹配；%6",
    "the first at byte %1: wrote %2, read %3":
        "第一处位于字节 %1：写入 %2，读出 %3",
    "the first at byte %1: wrote %2, read %3; %4":
        "第一处位于字节 %1：写入 %2，读出 %3；%4",
    "the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics (nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced":
        "GPU 显存有故障：请勿在此 GPU 上扫描；请运行厂商诊断（nvidia-smi -q -d ECC、dcgmi diag）并更换该显卡",
    "the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics (nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced; %1":
        "GPU 显存有故障：请勿在此 GPU 上扫描；请运行厂商诊断（nvidia-smi -q -d ECC、dcgmi diag）并更换该显卡；%1",
    "a GPU could not be tested: check the driver (nvidia-smi) and the GPU's free memory, then connect again":
        "有 GPU 无法测试：请检查驱动（nvidia-smi）和 GPU 的空闲显存，然后重新连接",
    "every slot written by the front end and checked in place; no slot whose errors repeat there":
        "每个槽位均由前端写入并就地校验；没有错误反复出现的槽位",
    "%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked in place: %6 blocks with errors; %7 slots whose errors repeat there%8":
        "前端将 %1 写入 %3 个环形缓冲区槽位中的 %2 个（%4 个数据块，每槽位 %5 个）并就地校验：%6 个数据块有错误；%7 个槽位错误反复出现%8",
    "%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked in place: %6 blocks with errors; %7 slot whose errors repeat there%8":
        "前端将 %1 写入 %3 个环形缓冲区槽位中的 %2 个（%4 个数据块，每槽位 %5 个）并就地校验：%6 个数据块有错误；%7 个槽位错误反复出现%8",
    ": %1 (the rest of the ring: %2 of %3 blocks)":
        "：%1（环形缓冲区其余部分：%3 个数据块中 %2 个有错误）",
    "slot %1: %2 of %3 blocks with errors (%4 bit errors)":
        "槽位 %1：%3 个数据块中 %2 个有错误（%4 个误码）",
    "slot %1: %2 of %3 blocks with errors (%4 bit errors); %5":
        "槽位 %1：%3 个数据块中 %2 个有错误（%4 个误码）；%5",
    "the host memory under those slots, or the DMA path to them (the NIC, its PCIe slot, the IOMMU), damages what the front end writes: do not scan; run a full memory test, reseat the NIC, then connect again":
        "这些槽位所在的主机内存，或通往它们的 DMA 通路（NIC、其 PCIe 插槽、IOMMU）损坏了前端写入的数据：请勿扫描；请运行完整的内存测试，重新插好 NIC，然后重新连接",
    "the test's pattern did not reach every slot: a longer BER test (sonolink-cli selftest --full) covers the ring":
        "测试码型未覆盖每个槽位：更长的误码率测试（sonolink-cli selftest --full）可覆盖整个环形缓冲区",
    "every configured node answers a C-ECHO":
        "每个已配置的节点均应答 C-ECHO",
    "%1 answered in %2 ms":
        "%1 在 %2 ms 内应答",
    "%1 answered in %2 ms; %3":
        "%1 在 %2 ms 内应答；%3",
    "%1: nothing listening: %2":
        "%1：无服务监听：%2",
    "%1: rejected: %2":
        "%1：被拒绝：%2",
    "%1: timeout: %2":
        "%1：超时：%2",
    "%1: TLS: %2":
        "%1：TLS 问题：%2",
    "%1: other: %2":
        "%1：其他问题：%2",
    "C-ECHO to %1 nodes, %2 answered: %3":
        "向 %1 个节点发送 C-ECHO，%2 个应答：%3",
    "studies wait in the queue until the node answers. Nothing listening: the PACS is down or its address or port is wrong; rejected: our AE title (dicom.station_ae_title) is unknown to it; timeout: a firewall or a busy PACS; TLS: the certificates, or TLS set for a plain port":
        "检查将在队列中等待，直到节点应答。无服务监听：PACS 未运行，或其地址或端口有误；被拒绝：对方不认识本机的 AE 名称（dicom.station_ae_title）；超时：防火墙拦截或 PACS 繁忙；TLS：证书问题，或对普通端口设置了 TLS",
    "link BER test: PRBS-%1 until %2 bits show BER <= %3 at %4 % confidence":
        "链路误码率测试：PRBS-%1，直至 %2 比特在 %4% 置信度下表明 BER <= %3",
    "BER <= %1 at %2 % confidence (%3 bits, PRBS-%4), no block lost":
        "在 %2% 置信度下 BER <= %1（%3 比特，PRBS-%4），无数据块丢失",
    "%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 blocks lost: BER %7, under %8 at %9 % confidence":
        "%2 s 内比对 %1 比特，%3 个误码，%4 次失锁，%5 个数据块有 CRC 错误，丢失 %6 个数据块：BER %7，在 %9% 置信度下低于 %8",
    "%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 blocks lost: BER %7, under %8 at %9 % confidence (stopped: out of time)":
        "%2 s 内比对 %1 比特，%3 个误码，%4 次失锁，%5 个数据块有 CRC 错误，丢失 %6 个数据块：BER %7，在 %9% 置信度下低于 %8（已停止：超时）",
    "the link lost %1 blocks (%2 never arrived, %3 refused, %4 late): check the NIC's port counters for drops and pause frames (sonolink-cli link diag), the switch between, then connect again":
        "链路丢失了 %1 个数据块（%2 个未到达，%3 个被拒收，%4 个迟到）：请检查 NIC 端口计数器中的丢包和暂停帧（sonolink-cli link diag）以及中间的交换机，然后重新连接",
    "bit errors on the data path: check the cable or fibre and its connectors, the transceivers and the NIC's port counters (sonolink-cli link diag), then connect again":
        "数据通路上有误码：请检查电缆或光纤及其连接器、光模块以及 NIC 端口计数器（sonolink-cli link diag），然后重新连接",
    "too few bits compared to show the limit: the link is slower than planned, or the test's time (selftest.ber_timeout_s) too short":
        "比对的比特数太少，不足以证明该限值：链路比预期慢，或测试时间（selftest.ber_timeout_s）太短",
    "the start-up %1 test failed: %2":
        "启动时的 %1 测试未通过：%2",
    "%1; the start-up %2 test failed: %3":
        "%1；启动时的 %2 测试未通过：%3",
    "cancelled by %1 while it ran; the steps after it did not run":
        "运行中被 %1 取消；其后的步骤未运行",
    "the self-test runs to its end":
        "自检运行至结束",
    "connect again to run the self-test (or override it, with a reason)":
        "请重新连接以运行自检（或说明理由后越权放行）",
    "no self-test runs":
        "没有正在运行的自检",
    "this station has no self-test configured":
        "本工作站未配置自检",
    "cannot run the self-test while %1: stop streaming first":
        "%1 时无法运行自检：请先停止采集",
    "no self-test step is named '%1'":
        "没有名为“%1”的自检步骤",
    "no failed self-test blocks streaming":
        "没有阻止采集的未通过自检",
    "an override needs a reason (it is recorded with who gave it)":
        "越权放行需要理由（理由将与操作人一并记录）",
    "starting the link BER test":
        "启动链路误码率测试",
    "running the link BER test":
        "运行链路误码率测试",
    "the station's set-up":
        "工作站设置",
    "March C- over the GPU's memory":
        "对 GPU 显存执行 March C-",
    "March C- over the DMA ring":
        "对 DMA 环形缓冲区执行 March C-",
    "C-ECHO to %1 nodes":
        "向 %1 个节点发送 C-ECHO",
    # core/engine/src/self_test_control.cpp (stationDiagnostics)
    " (this link's ring is not locked memory; a verbs link's would fail)":
        "（此链路的环形缓冲区不是锁定内存；verbs 链路则会失败）",
    # core/engine/src/engine_stats.cpp
    "%1 of %2 bits compared":
        "已比对 %1 / %2 比特",
    # core/engine/src/element_check_control.cpp
    "channel %1 dead (RMS %2 counts, %3 % of the median)":
        "通道 %1 失效（RMS %2 计数，为中位数的 %3%）",
    "channel %1 dead (RMS %2 counts, %3 % of the median); %4":
        "通道 %1 失效（RMS %2 计数，为中位数的 %3%）；%4",
    "channel %1 weak (RMS %2 counts, %3 % of the median)":
        "通道 %1 信号弱（RMS %2 计数，为中位数的 %3%）",
    "channel %1 weak (RMS %2 counts, %3 % of the median); %4":
        "通道 %1 信号弱（RMS %2 计数，为中位数的 %3%）；%4",
    "channel %1 noisy (SNR %2 dB, %3 dB under the median)":
        "通道 %1 噪声大（SNR %2 dB，比中位数低 %3 dB）",
    "channel %1 noisy (SNR %2 dB, %3 dB under the median); %4":
        "通道 %1 噪声大（SNR %2 dB，比中位数低 %3 dB）；%4",
    "channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, each fits the other's place)":
        "通道 %1 与 %2 接反（其包络与相邻通道的相关系数分别为 %3 和 %4，各自符合对方的位置）",
    "channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, each fits the other's place); %5":
        "通道 %1 与 %2 接反（其包络与相邻通道的相关系数分别为 %3 和 %4，各自符合对方的位置）；%5",
    "channel %1 uncorrelated with its neighbours (%2)":
        "通道 %1 与相邻通道不相关（%2）",
    "channel %1 uncorrelated with its neighbours (%2); %3":
        "通道 %1 与相邻通道不相关（%2）；%3",
    "no channel dead (RMS under %1 % of the median), weak (under %2 %), noisy (SNR %3 dB under the median) or swapped (envelope correlation with its neighbours under %4 x the median)":
        "没有通道失效（RMS 低于中位数的 %1%）、信号弱（低于 %2%）、噪声大（SNR 比中位数低 %3 dB）或接反（与相邻通道的包络相关系数低于中位数的 %4 倍）",
    "the phantom's frames do not fit the configured geometry: %1":
        "体模的帧与配置的几何参数不符：%1",
    "the front end sends another geometry than the one configured: check its firmware and the acquisition settings":
        "前端发送的几何参数与配置不同：请检查其固件和采集设置",
    "%1 of %2 frames of the phantom arrived in %3 s":
        "%3 s 内收到体模的 %2 帧中的 %1 帧",
    "%1 of %2 frames of the phantom arrived before the session ended":
        "会话结束前收到体模的 %2 帧中的 %1 帧",
    "the front end did not send its phantom's frames: check the link (sonolink-cli link diag), then connect again":
        "前端未发送其体模的帧：请检查链路（sonolink-cli link diag），然后重新连接",
    "%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation with the neighbours %5; %6 flagged":
        "体模 %1 帧，%2 个通道：RMS 中位数 %3 计数，SNR %4，与相邻通道的包络相关系数 %5；%6 个被标记",
    "%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation with the neighbours %5; %6 flagged: %7":
        "体模 %1 帧，%2 个通道：RMS 中位数 %3 计数，SNR %4，与相邻通道的包络相关系数 %5；%6 个被标记：%7",
    "not measured (identical frames)":
        "未测量（各帧相同）",
    "dead or weak: the element, its cable or its receive channel (swap the probe to tell which); noisy: the channel's preamplifier or a ground fault; swapped: the probe's connector or cable wiring. Do not scan with this probe":
        "失效或信号弱：阵元、其电缆或其接收通道有问题（更换探头可判断是哪一项）；噪声大：该通道的前置放大器或接地故障；接反：探头连接器或电缆接线有误。请勿使用此探头扫描",
    "NCC of the log envelopes (60 dB) >= %1; each point target within %2 mm of the reference's peak, its lateral and axial FWHM within %3 % of the reference's":
        "对数包络（60 dB）的 NCC >= %1；每个点目标与参考图像峰值的距离在 %2 mm 以内，其横向和轴向 FWHM 与参考图像相差在 %3% 以内",
    "the image of the known phantom is not what it must be: check the probe's connector (the element order), the probe definition and sound speed in the configuration, and the front end's timing; then connect again":
        "已知体模的图像与应有结果不符：请检查探头连接器（阵元顺序）、配置中的探头定义和声速，以及前端的时序；然后重新连接",
    "no reference image of the phantom: %1":
        "没有体模的参考图像：%1",
    "no frame of the phantom arrived":
        "未收到体模的任何帧",
    "the %1 imager could not beamform the phantom: %2":
        "%1 成像器无法对体模进行波束合成：%2",
    "%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8)":
        "%1(%2, %3) mm：偏离 %4 mm，FWHM %5 x %6 mm（参考 %7 x %8）",
    "%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8); %9":
        "%1(%2, %3) mm：偏离 %4 mm，FWHM %5 x %6 mm（参考 %7 x %8）；%9",
    "FAILED ":
        "未通过 ",
    "the phantom beamformed on the %1 imager (%2 x %3 grid): NCC %4 with the reference; %5 point targets, the farthest %6 mm from its place: %7":
        "体模在 %1 成像器上完成波束合成（%2 x %3 网格）：与参考图像的 NCC 为 %4；%5 个点目标，最远偏离其位置 %6 mm：%7",
    "%1 frames of the phantom":
        "体模 %1 帧",
    "starting the element check":
        "启动阵元检查",
    # core/selftest/src/element_check.cpp, phantom_check.cpp
    "element check of %1 frames x %2 waves x %3 channels x %4 samples: at least one frame of three channels is needed":
        "阵元检查的数据为 %1 帧 x %2 次发射 x %3 通道 x %4 采样点：至少需要一帧、三个通道",
    "element check: %1 samples for %2 frames x %3 waves x %4 channels x %5":
        "阵元检查：%2 帧 x %3 次发射 x %4 通道 x %5 却有 %1 个采样点",
    "phantom check: an image does not match its grid (live %1 x %2, reference %3 x %4)":
        "体模检查：有图像与其网格不符（实时图像 %1 x %2，参考图像 %3 x %4）",
    "phantom check: the live image and the reference are on different grids":
        "体模检查：实时图像与参考图像的网格不同",
    # core/engine/src/engine.cpp
    "bringing the link up":
        "正在建立链路",
    "start-up self-tests: none configured":
        "启动自检：未配置",
    "link up, front end configured":
        "链路已建立，前端已配置",
    "link up, front end configured; streaming blocked: %1":
        "链路已建立，前端已配置；采集被阻止：%1",
    "the front end finished its session (%1 frames)":
        "前端已结束其会话（%1 帧）",
    "the front end reports: %1":
        "前端报告：%1",
    "cannot stream while %1":
        "%1 时无法采集",
    "%1; an engineer may override it, with a reason (overrideSelfTest)":
        "%1；工程师可说明理由后越权放行（overrideSelfTest）",
    "live again":
        "恢复实时",
    "image and cine held for review":
        "图像和电影回放已冻结以供回顾",
    "disconnected":
        "已断开",
    "no PACS queue is configured":
        "未配置 PACS 队列",
    "no archive is configured":
        "未配置归档",
    "queuing %1 for the archive":
        "将 %1 加入归档队列",
    "%1 thread: %2":
        "%1 线程：%2",
    "the engine needs a link backend":
        "引擎需要链路后端",
    "the imaging settings are out of range":
        "成像设置超出范围",
    "checking the acquisition geometry":
        "检查采集几何参数",
    "starting the archive queue":
        "启动归档队列",
    # core/engine/src/acquisition.cpp, display_pipeline.cpp, frame_capture.cpp, cpu_imager.cpp, work_queue.cpp
    "closed before streaming":
        "采集开始前已关闭",
    "not streamed":
        "未采集",
    "acquisition thread: %1":
        "采集线程：%1",
    "an exception that is not a std::exception":
        "一个非 std::exception 的异常",
    "a std::exception without a message":
        "一个没有消息的 std::exception",
    "the imager gave %1 x %2 pixels for a %3 x %4 grid":
        "成像器为 %3 x %4 的网格给出了 %1 x %2 个像素",
    "frame %1 not imaged: %2 (later failures are counted, not reported)":
        "第 %1 帧未成像：%2（之后的失败只计数，不再报告）",
    "the display stopped: %1":
        "显示已停止：%1",
    "beamforming the phantom: %1":
        "体模波束合成：%1",
    "frame %1: block %2 does not fit the configured geometry":
        "第 %1 帧：数据块 %2 与配置的几何参数不符",
    # core/engine/src/export_job.cpp
    "the patient's name %1":
        "患者姓名%1",
    "the referring physician's name %1":
        "转诊医师姓名%1",
    "'%1' must be at most 64 characters (got %2)":
        "“%1”最多 64 个字符（实际 %2 个）",
    "'%1' may not hold a backslash or a control character":
        "“%1”不得包含反斜杠或控制字符",
    "the Study Instance UID %1":
        "检查实例 UID（Study Instance UID）%1",
    "the body part '%1' is not a DICOM code string (up to 16 capitals, digits, '_' and spaces)":
        "检查部位“%1”不是 DICOM 代码字符串（最多 16 个大写字母、数字、“_”和空格）",
    "live again: a new exam":
        "恢复实时：新的检查",
    "cancelled before it started":
        "开始前已取消",
    "collecting the cine":
        "正在收集电影回放",
    "the cine is empty: stream first":
        "电影回放为空：请先采集",
    "cancelled":
        "已取消",
    "writing %1 frames":
        "正在写入 %1 帧",
    "writing %1 frames (the %2 before the last change of depth or view are left out)":
        "正在写入 %1 帧（最近一次改变深度或视图之前的 %2 帧不包括在内）",
    "frame %1 of session %2 is no longer held (the cine keeps the last %3): freeze and export again":
        "会话 %2 的第 %1 帧已不再保留（电影回放只保留最近 %3 帧）：请冻结后重新导出",
    "the burnt-in picture has %1 bytes; the frame's %2 x %3 pixels need %4 (R, G, B each)":
        "烧录后的图片有 %1 字节；该帧的 %2 x %3 像素需要 %4 字节（R、G、B 各一）",
    "writing the image with its measurements burnt in":
        "正在写入烧录了测量结果的图像",
    "writing the image":
        "正在写入图像",
    "writing the measurement report (%1 measurements)":
        "正在写入测量报告（%1 项测量）",
    "the image is written, its measurement report is not: %1":
        "图像已写入，但其测量报告未写入：%1",
    "queued for %1 as item %2":
        "已加入 %1 的队列，条目 %2",
    "queued for %1 as items %2":
        "已加入 %1 的队列，条目 %2",
    "item %1 is no longer in the queue":
        "条目 %1 已不在队列中",
    "cancelled; item %1 withdrawn from the queue":
        "已取消；条目 %1 已从队列中撤回",
    "cancelled; items %1 withdrawn from the queue":
        "已取消；条目 %1 已从队列中撤回",
    "too late to cancel: already at %1":
        "来不及取消：已送达 %1",
    # core/dicom/src/value_rules.cpp (what export_job.cpp and node_jobs.cpp say of a value)
    "must be 1 to 16 characters (got %1)":
        "必须为 1 到 16 个字符（实际 %1 个）",
    "may hold only printable ASCII without backslash":
        "只能包含除反斜杠以外的可打印 ASCII 字符",
    "must not be all spaces":
        "不得全为空格",
    "a UID has 1 to 64 characters (got %1)":
        "UID 应有 1 到 64 个字符（实际 %1 个）",
    "must be dot-separated numbers with no empty component":
        "必须是以点分隔的数字，且不得有空的部分",
    "component '%1' is not a number (only digits and dots)":
        "部分“%1”不是数字（只能有数字和点）",
    "component '%1' has a leading zero":
        "部分“%1”有前导零",
    "must be at most 64 characters (got %1)":
        "最多 64 个字符（实际 %1 个）",
    "may not hold a backslash or a control character":
        "不得包含反斜杠或控制字符",
    "must be at most 16 characters (got %1)":
        "最多 16 个字符（实际 %1 个）",
    "has more than three component groups (alphabetic=ideographic=phonetic)":
        "超过三个组件组（字母=表意=语音）",
    "component group %1 has %2 characters; at most 64":
        "组件组 %1 有 %2 个字符；最多 64 个",
    "component group %1 has more than five components":
        "组件组 %1 超过五个组件",
    # core/engine/src/recording_control.cpp
    "already recording":
        "已在录制",
    "recording to %1":
        "录制到 %1",
    # core/record/src/recorder.cpp, uff_stream_writer.cpp (a recording's failures)
    "the recorder fell behind: %1 frames were waiting for the disk; recording stopped before frame %2 (nothing after it is recorded)":
        "录制跟不上：%1 帧在等待写入磁盘；录制在第 %2 帧之前停止（其后的内容均未录制）",
    "recording: %1":
        "录制：%1",
    "cannot create %1: %2":
        "无法创建 %1：%2",
    "no room to record beside %1: the disk is full":
        "%1 旁没有录制空间：磁盘已满",
    "%1: cannot create group %2":
        "%1：无法创建组 %2",
    "%1: cannot create the data set":
        "%1：无法创建数据集",
    "%1: cannot create /acquisition":
        "%1：无法创建 /acquisition",
    "%1: cannot write the new recording: %2":
        "%1：无法写入新的录制文件：%2",
    "starting the recording %1":
        "开始录制 %1",
    "%1 exists already: record to a new file (nothing was overwritten)":
        "%1 已存在：请录制到新文件（未覆盖任何内容）",
    "cannot create recording %1 (directory missing, no permission, or it exists?)":
        "无法创建录制文件 %1（目录不存在、无权限，或文件已存在？）",
    "%1: the disk is full: %2 MB left, a frame needs %3 MB; the recording ends with its %4 frames":
        "%1：磁盘已满：剩余 %2 MB，每帧需要 %3 MB；录制以已有的 %4 帧结束",
    "%1: cannot grow the data set (disk full?)":
        "%1：无法扩展数据集（磁盘已满？）",
    "%1: no frame to end":
        "%1：没有可结束的帧",
    "%1: writing to the disk failed after frame %2: %3":
        "%1：第 %2 帧之后写入磁盘失败：%3",
    "the disk is full":
        "磁盘已满",
    "%1: writing frame %2 failed: %3":
        "%1：写入第 %2 帧失败：%3",
    "(disk full?)":
        "（磁盘已满？）",
    "%1: cannot drop the partial frame":
        "%1：无法丢弃不完整的帧",
    "%1: writing to the disk failed at close: %2":
        "%1：关闭时写入磁盘失败：%2",
    # core/dicom/src/codecs.cpp (an exported object's write)
    "cannot write %1: the disk is full (the object needs %2 bytes; nothing was written under its name)":
        "无法写入 %1：磁盘已满（该对象需要 %2 字节；未以该名称写入任何内容）",
    "cannot write %1: %2 (nothing was written under its name)":
        "无法写入 %1：%2（未以该名称写入任何内容）",
    # core/engine/src/node_jobs.cpp
    "no node '%1' is configured (dicom.nodes: %2)":
        "未配置节点“%1”（dicom.nodes：%2）",
    "no node '%1' is configured (dicom.nodes: none)":
        "未配置节点“%1”（dicom.nodes：无）",
    "its AE title '%1' %2":
        "其 AE 名称“%1”%2",
    "the station's AE title '%1' %2":
        "本机 AE 名称“%1”%2",
    "it has no host":
        "未设置主机",
    "its port %1 is not 1 to 65535":
        "其端口 %1 不在 1 到 65535 之间",
    "node '%1' cannot be asked: %2":
        "无法询问节点“%1”：%2",
    "C-ECHO to %1 at %2":
        "向 %2 上的 %1 发送 C-ECHO",
    "C-ECHO to %1 at %2: ok":
        "向 %2 上的 %1 发送 C-ECHO：成功",
    "asking %1 (%2:%3)":
        "正在询问 %1（%2:%3）",
    "querying the worklist":
        "查询工作列表",
    "%1 scheduled exam":
        "%1 项预约检查",
    "%1 scheduled exams":
        "%1 项预约检查",
    # core/dicom/src/association.cpp (a PACS node's failures, in C-ECHO answers and job messages)
    "PACS %1 at %2: cannot associate: %3":
        "%2 上的 PACS %1：无法建立关联：%3",
    "PACS %1 at %2: cannot associate: %3 (if this port is TLS-only, set tls for this node)":
        "%2 上的 PACS %1：无法建立关联：%3（如果该端口仅支持 TLS，请为此节点设置 tls）",
    "PACS %1 at %2: cannot associate: %3 (check the certificates: ours, the CA we trust for the peer, and that the peer's certificate names %4 in its subjectAltName)":
        "%2 上的 PACS %1：无法建立关联：%3（请检查证书：本机证书、用于信任对方的 CA，以及对方证书的 subjectAltName 中是否包含 %4）",
    "PACS %1 at %2: TLS needs our %3 file, and none is configured":
        "%2 上的 PACS %1：TLS 需要本机的 %3 文件，但未配置",
    "PACS %1 at %2: TLS %3 file %4 does not exist":
        "%2 上的 PACS %1：TLS %3 文件 %4 不存在",
    "PACS %1 at %2: TLS set-up, %3: %4":
        "%2 上的 PACS %1：TLS 设置，%3：%4",
    "PACS %1 at %2: private key %3 does not match certificate %4":
        "%2 上的 PACS %1：私钥 %3 与证书 %4 不匹配",
    "PACS %1 at %2: TLS set-up: cannot check the peer's name against '%3'":
        "%2 上的 PACS %1：TLS 设置：无法按“%3”核对对方的名称",
    "PACS %1 at %2: not associating: stopped on request":
        "%2 上的 PACS %1：未建立关联：已按请求停止",
    "cannot start the network: %1":
        "无法启动网络：%1",
    "PACS %1 at %2: cannot attach the transport: %3":
        "%2 上的 PACS %1：无法挂接传输层：%3",
    "PACS %1 at %2: %3: stopped on request":
        "%2 上的 PACS %1：%3：已按请求停止",
    "PACS %1 at %2: %3: no complete answer in time (the deadline of this step passed; the peer is slow or stalled): %4":
        "%2 上的 PACS %1：%3：未及时收到完整应答（此步骤的期限已过；对方响应缓慢或已停滞）：%4",
    "PACS %1 at %2: %3 failed: %4":
        "%2 上的 PACS %1：%3 失败：%4",
    # core/ingest/src/stream_session.cpp, ingest_engine.cpp (the link's session)
    "the front end did not acknowledge Configure in time":
        "前端未及时确认 Configure",
    "configuring the front end":
        "配置前端",
    "the front end refused the configuration: %1":
        "前端拒绝了该配置：%1",
    "streaming":
        "采集",
    "the front end %1; the link must be reset":
        "前端%1；必须重置链路",
    "a ring of %1 slots cannot hold two frames of %2 blocks: use more or larger slots":
        "%1 个槽位的环形缓冲区容纳不下两帧 %2 个数据块的数据：请使用更多或更大的槽位",
    # transport/sim/src/sim_link.cpp, shared_region.cpp (the simulated link, host side)
    "the front end detached from the link":
        "前端已从链路断开",
    "the front end process (pid %1) is gone":
        "前端进程（pid %1）已退出",
    "the front end (pid %1) sent no heartbeat for %2 s":
        "前端（pid %1）已 %2 s 未发送心跳",
    "stopped while waiting for the front end":
        "等待前端时已停止",
    "no front end attached to the in-process link":
        "没有前端连接到进程内链路",
    "no front end attached to /dev/shm/%1 within %2 ms (start sonolink-fe-sim --link-name %3)":
        "%2 ms 内没有前端连接到 /dev/shm/%1（请启动 sonolink-fe-sim --link-name %3）",
    "control channel to the front end is full: %1 not sent (front end not reading)":
        "通往前端的控制通道已满：%1 未发送（前端未读取）",
    "credit lane full: the front end is not reading credits":
        "信用通道已满：前端未读取信用",
    "the link /dev/shm/%1 is in use by another host (PID %2): stop it, or give this one another link name":
        "链路 /dev/shm/%1 正被另一主机（PID %2）使用：请停止该主机，或为本主机另取一个链路名称",
    "cannot create shared memory /dev/shm/%1: %2":
        "无法创建共享内存 /dev/shm/%1：%2",
    "the link needs %1 MiB of shared memory (/dev/shm/%2: %3 slots of %4 KiB and its queues) and /dev/shm has %5 MiB free (%6): make the ring smaller (link.slot_count, link.slot_size_bytes) or /dev/shm larger (Docker: --shm-size)":
        "链路需要 %1 MiB 共享内存（/dev/shm/%2：%3 个 %4 KiB 的槽位及其队列），而 /dev/shm 只有 %5 MiB 可用（%6）：请缩小环形缓冲区（link.slot_count、link.slot_size_bytes）或增大 /dev/shm（Docker：--shm-size）",
    # app/doctor/src/doctor_checks.cpp
    "the group '%1' is missing: `sudo apt install --reinstall sonolink` creates it, then `sudo adduser $USER %2` and log in again":
        "缺少组“%1”：`sudo apt install --reinstall sonolink` 会创建该组，然后执行 `sudo adduser $USER %2` 并重新登录",
    "`sudo adduser $USER %1`, then log out and in again (the package's udev rule gives the group /dev/infiniband; `sudo udevadm trigger --subsystem-match=infiniband_verbs` applies it without a reboot)":
        "执行 `sudo adduser $USER %1`，然后注销并重新登录（软件包的 udev 规则将 /dev/infiniband 授予该组；`sudo udevadm trigger --subsystem-match=infiniband_verbs` 可在不重启的情况下使其生效）",
    "the device nodes are not the group's yet: `sudo udevadm trigger --subsystem-match=infiniband_verbs`, or reboot":
        "设备节点尚未归属该组：执行 `sudo udevadm trigger --subsystem-match=infiniband_verbs`，或重启",
    "an RDMA device whose /dev/infiniband nodes this user can open":
        "一个 RDMA 设备，且当前用户可以打开其 /dev/infiniband 节点",
    "none needed (the link is simulated)":
        "无需（链路为模拟链路）",
    "no RDMA device":
        "无 RDMA 设备",
    "RDMA devices: %1; cannot open %2; group '%3': %4":
        "RDMA 设备：%1；无法打开 %2；组“%3”：%4",
    "RDMA devices: %1; %2 device nodes open; group '%3': %4":
        "RDMA 设备：%1；%2 个设备节点可打开；组“%3”：%4",
    "missing":
        "不存在",
    "a member":
        "是成员",
    "not a member":
        "不是成员",
    "this build has no RDMA (rdma-core was not found)":
        "此版本不含 RDMA（未找到 rdma-core）",
    "the configuration asks for a verbs link: use a build with rdma-core (libibverbs-dev, librdmacm-dev), or link.backend \"sim\"":
        "配置要求使用 verbs 链路：请使用包含 rdma-core（libibverbs-dev、librdmacm-dev）的版本，或设置 link.backend \"sim\"",
    "load the NIC's driver (for a ConnectX: `sudo modprobe mlx5_ib`), or for Soft-RoCE `sudo rdma link add rxe0 type rxe netdev <interface>`; `sonolink-cli probe` lists what the station has":
        "请加载 NIC 的驱动（ConnectX：`sudo modprobe mlx5_ib`），Soft-RoCE 则执行 `sudo rdma link add rxe0 type rxe netdev <interface>`；`sonolink-cli probe` 可列出本工作站的硬件",
    "Qt's xcb platform plugin present, and every library it needs":
        "Qt 的 xcb 平台插件存在，且其所需的每个库均存在",
    "%1 is missing":
        "缺少 %1",
    "`sudo apt install --reinstall libqt6gui6` (it ships the xcb plugin)":
        "执行 `sudo apt install --reinstall libqt6gui6`（它包含 xcb 插件）",
    "%1 does not load: %2":
        "%1 无法加载：%2",
    "install the library the error names (`apt-file search <library>` tells its package), or `sudo apt install --reinstall libqt6gui6`":
        "请安装错误信息中提到的库（`apt-file search <library>` 可查出其所属软件包），或执行 `sudo apt install --reinstall libqt6gui6`",
    "%1 loads":
        "%1 可以加载",
    "a display for the console ($DISPLAY or $WAYLAND_DISPLAY) that answers":
        "控制台可用且有响应的显示（$DISPLAY 或 $WAYLAND_DISPLAY）",
    "no display ($DISPLAY and $WAYLAND_DISPLAY are not set)":
        "没有显示（未设置 $DISPLAY 和 $WAYLAND_DISPLAY）",
    "the console (`sonolink`) needs one: run it from the desktop session, or on a virtual display with `xvfb-run -a sonolink`; `sonolink-cli` and its headless demo need none":
        "控制台（`sonolink`）需要显示：请在桌面会话中运行，或用 `xvfb-run -a sonolink` 在虚拟显示上运行；`sonolink-cli` 及其无界面演示不需要显示",
    "%1 does not answer: %2":
        "%1 无响应：%2",
    "start the display server (log in to the desktop), or `unset DISPLAY WAYLAND_DISPLAY` for the headless tools":
        "请启动显示服务器（登录桌面），或为无界面工具执行 `unset DISPLAY WAYLAND_DISPLAY`",
    "DISPLAY=%1 answers":
        "DISPLAY=%1 有响应",
    "WAYLAND_DISPLAY=%1 answers":
        "WAYLAND_DISPLAY=%1 有响应",
    "a font that covers Chinese (zh), for the console in Chinese":
        "一种覆盖中文（zh）的字体，供中文界面的控制台使用",
    "fontconfig could not be asked: %1":
        "无法查询 fontconfig：%1",
    "`sudo apt install fontconfig fonts-noto-cjk`":
        "执行 `sudo apt install fontconfig fonts-noto-cjk`",
    "no font covers Chinese: the console's Chinese text would show as boxes":
        "没有覆盖中文的字体：控制台的中文文本将显示为方框",
    "`sudo apt install fonts-noto-cjk` (or fonts-wqy-microhei)":
        "执行 `sudo apt install fonts-noto-cjk`（或 fonts-wqy-microhei）",
    "%1 families, e.g. %2":
        "%1 个字体族，例如 %2",
    "no file: the built-in defaults":
        "无配置文件：使用内置默认值",
    "every key valid":
        "每个配置项均有效",
    "correct each key named, then `sonolink-cli config check %1`":
        "请更正所列的每个配置项，然后执行 `sonolink-cli config check %1`",
    "%1: valid":
        "%1：有效",
    "no PACS node is configured: studies cannot leave this station":
        "未配置 PACS 节点：检查无法从本工作站发出",
    "add the hospital's PACS to dicom.nodes (or in the console: Settings…, PACS), then `sonolink-cli dicom echo --config FILE --node NAME`":
        "请将医院的 PACS 添加到 dicom.nodes（或在控制台中：设置…，PACS），然后执行 `sonolink-cli dicom echo --config FILE --node NAME`",
    "%1 of %2 answered: %3":
        "%2 个中有 %1 个应答：%3",
    "studies wait in the queue until the node answers. Nothing listening: the PACS is down, or its address or port is wrong; rejected: the PACS does not know our AE title (dicom.station_ae_title); timeout: a firewall or a busy PACS; TLS: the certificates, or TLS asked of a plain port. Try again with `sonolink-cli dicom echo --config FILE --node NAME`":
        "检查将在队列中等待，直到节点应答。无服务监听：PACS 未运行，或其地址或端口有误；被拒绝：PACS 不认识本机的 AE 名称（dicom.station_ae_title）；超时：防火墙拦截或 PACS 繁忙；TLS：证书问题，或对普通端口要求了 TLS。请用 `sonolink-cli dicom echo --config FILE --node NAME` 重试",
    "the system clock synchronised (NTP or PTP), its error bound within %1 ms":
        "系统时钟已同步（NTP 或 PTP），误差上限在 %1 ms 以内",
    "`sudo timedatectl set-ntp true` (systemd-timesyncd), or `sudo apt install chrony`; `timedatectl` shows the state. Study, series and frame times come from this clock":
        "执行 `sudo timedatectl set-ntp true`（systemd-timesyncd），或 `sudo apt install chrony`；`timedatectl` 可显示状态。检查、序列和帧的时间均取自此时钟",
    "the clock's state could not be read: %1":
        "无法读取时钟状态：%1",
    "the system clock is not synchronised":
        "系统时钟未同步",
    "synchronised, its error bound %1 ms":
        "已同步，但误差上限为 %1 ms",
    "synchronised, error bound %1 ms":
        "已同步，误差上限 %1 ms",
    # app/doctor/src/doctor_facts.cpp (why a display, fontconfig or the Qt plugin could not be reached)
    "'%1' is not a display name (host:number)":
        "“%1”不是显示名称（host:number）",
    "the socket's path is too long":
        "套接字路径过长",
    "no address":
        "无地址",
    "XDG_RUNTIME_DIR is not set":
        "未设置 XDG_RUNTIME_DIR",
    "fc-list not found (fontconfig is not installed)":
        "找不到 fc-list（未安装 fontconfig）",
    "fc-list: %1":
        "fc-list 出错：%1",
    "dlopen failed":
        "dlopen 失败",
    'SonoLink is already running on this station (process %1): use its window. Two consoles would contend for the link, the recordings and the PACS queue.':
        'SonoLink 已在本工作站运行（进程 %1）：请使用已打开的窗口。两个控制台会争用链路、录制和 PACS 队列。',
    "cannot take the console's lock %1: %2":
        '无法获取控制台锁 %1：%2',
    'permission denied':
        '权限不足',
    'making %1 (%2)':
        '创建 %1（%2）',
    'SonoLink start-up self-test':
        'SonoLink 启动自检',
    'opening %1 to review it':
        '打开 %1 以回顾',
    '%1 is not an HDF5 file':
        '%1 不是 HDF5 文件',
    'channel data of %1 waves x %2 channels x %3 samples is empty':
        '通道数据（%1 次发射 x %2 通道 x %3 采样点）为空',
    '%1 element positions for %2 channels':
        '%2 个通道只有 %1 个阵元位置',
    '%1 transmit angles for %2 waves':
        '%2 次发射只有 %1 个发射角度',
    'element %1: position %2 m is no number':
        '阵元 %1：位置 %2 m 不是数值',
    "the %1 elements all lie at x = %2 m: an aperture of no width cannot be imaged (the probe's element positions are missing)":
        '全部 %1 个阵元都位于 x = %2 m：宽度为零的孔径无法成像（缺少探头的阵元位置）',
    'wave %1: steering angle %2 rad is not an angle within +-90 degrees':
        '发射 %1：偏转角 %2 rad 不在 ±90 度以内',
    'sampling rate %1 Hz and sound speed %2 m/s must be positive':
        '采样率 %1 Hz 和声速 %2 m/s 必须为正数',
}
