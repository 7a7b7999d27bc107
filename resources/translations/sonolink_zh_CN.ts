<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>QObject</name>
        <message>
            <source>General</source>
            <translation>常规</translation>
        </message>
        <message>
            <source>Superficial</source>
            <translation>浅表</translation>
        </message>
        <message>
            <source>Deep</source>
            <translation>深部</translation>
        </message>
        <message>
            <source>SonoLink cannot start</source>
            <translation>SonoLink 无法启动</translation>
        </message>
        <message>
            <source>No patient in the object</source>
            <translation>对象中没有患者信息</translation>
        </message>
        <message>
            <source>%1   ID %2</source>
            <translation>%1   编号 %2</translation>
        </message>
        <message>
            <source>, born %1</source>
            <translation>，出生于 %1</translation>
        </message>
        <message>
            <source>   study %1</source>
            <translation>   检查日期 %1</translation>
        </message>
    </context>
    <context>
        <name>sonolink::app::CineReviewWindow</name>
        <message>
            <source>SonoLink — Review: %1</source>
            <translation>SonoLink — 回顾：%1</translation>
        </message>
        <message>
            <source>Review: %1 (1 frame)</source>
            <translation>回顾：%1（1 帧）</translation>
        </message>
        <message>
            <source>Review: %1 (%2 frames)</source>
            <translation>回顾：%1（%2 帧）</translation>
        </message>
        <message>
            <source>The object states no pixel spacing: the rulers count pixels, not millimetres.</source>
            <translation>该对象未给出像素间距：标尺以像素计，而非毫米。</translation>
        </message>
        <message>
            <source>Frame %1 cannot be shown (%2 so far): %3</source>
            <translation>第 %1 帧无法显示（迄今 %2 帧）：%3</translation>
        </message>
        <message>
            <source>Frame %1 / %2, read in %3 ms</source>
            <translation>第 %1 / %2 帧，读取用时 %3 ms</translation>
        </message>
        <message>
            <source>The object does not say where the picture lies: depth is shown from its top edge, 0 across at its centre.</source>
            <translation>该对象未说明图像的位置：深度从图像顶边算起，横向 0 位于其中心。</translation>
        </message>
    </context>
    <context>
        <name>sonolink::app::ImageWatch</name>
        <message>
            <source>FROZEN</source>
            <translation>已冻结</translation>
        </message>
        <message>
            <source>The beamformer refused the last frames (%1 in the last half second). Choose the depth or preset again; if it stays, Disconnect and Connect, and tell the engineer what the status bar says.</source>
            <translation>波束形成器拒绝了最近的帧（最近半秒内 %1 帧）。请重新选择深度或预设；若仍如此，请断开后重新连接，并把状态栏的内容告知工程师。</translation>
        </message>
        <message>
            <source>Frames are being lost on the link (%1 in the last half second): see Link health, and call the engineer.</source>
            <translation>链路正在丢帧（最近半秒内 %1 帧）：请查看“链路健康”，并联系工程师。</translation>
        </message>
        <message>
            <source>No frames arrive from the front end. Check the probe and the front end's cable and power, or Disconnect and Connect again.</source>
            <translation>前端没有帧到达。请检查探头及前端的线缆和电源，或断开后重新连接。</translation>
        </message>
        <message>
            <source>No new image for %1 s: this picture is not live.
%2</source>
            <translation>已 %1 秒没有新图像：此画面不是实时的。
%2</translation>
        </message>
        <message>
            <source>Scanning is blocked by the start-up self-test: %1
What to do: call the station's engineer, who can run the failed step again (Self-test…) or override it with a reason and a password.</source>
            <translation>启动自检阻止了扫描：%1
处理方法：联系本工作站的工程师，由其重新运行失败的步骤（自检…），或填写原因并输入密码予以越权放行。</translation>
        </message>
        <message>
            <source>The station stopped: %1
What to do: Connect again; if it fails again, call the engineer.</source>
            <translation>工作站已停止：%1
处理方法：重新连接；若再次失败，请联系工程师。</translation>
        </message>
    </context>
    <context>
        <name>sonolink::app::MainWindow</name>
        <message>
            <source>SonoLink</source>
            <translation>SonoLink</translation>
        </message>
        <message>
            <source>Acquisition</source>
            <translation>采集</translation>
        </message>
        <message>
            <source>Connect</source>
            <translation>连接</translation>
        </message>
        <message>
            <source>Live</source>
            <translation>实时</translation>
        </message>
        <message>
            <source>Freeze</source>
            <translation>冻结</translation>
        </message>
        <message>
            <source>Self-test…</source>
            <translation>自检…</translation>
        </message>
        <message>
            <source>Self-test, %1: %2: %3%4</source>
            <translation>自检，%1：%2：%3%4</translation>
        </message>
        <message>
            <source> What to do: %1</source>
            <translation> 处理方法：%1</translation>
        </message>
        <message>
            <source>Engine: %1</source>
            <translation>引擎：%1</translation>
        </message>
        <message>
            <source>Engine: %1 (%2)</source>
            <translation>引擎：%1（%2）</translation>
        </message>
        <message>
            <source>%1 frames/s, latency %2 ms</source>
            <translation>%1 帧/秒，延迟 %2 毫秒</translation>
        </message>
        <message>
            <source>idle</source>
            <translation>空闲</translation>
        </message>
        <message>
            <source>connecting</source>
            <translation>正在连接</translation>
        </message>
        <message>
            <source>self-test</source>
            <translation>自检中</translation>
        </message>
        <message>
            <source>ready</source>
            <translation>就绪</translation>
        </message>
        <message>
            <source>streaming</source>
            <translation>采集中</translation>
        </message>
        <message>
            <source>frozen</source>
            <translation>已冻结</translation>
        </message>
        <message>
            <source>error</source>
            <translation>错误</translation>
        </message>
        <message>
            <source>Save image…</source>
            <translation>保存图像…</translation>
        </message>
        <message>
            <source>Save image</source>
            <translation>保存图像</translation>
        </message>
        <message>
            <source>PNG images (*.png)</source>
            <translation>PNG 图像 (*.png)</translation>
        </message>
        <message>
            <source>Fit image</source>
            <translation>适合窗口</translation>
        </message>
        <message>
            <source>Link health</source>
            <translation>链路状态</translation>
        </message>
        <message>
            <source>RF</source>
            <translation>射频</translation>
        </message>
        <message>
            <source>View</source>
            <translation>视图</translation>
        </message>
        <message>
            <source>No image to save yet.</source>
            <translation>尚无可保存的图像。</translation>
        </message>
        <message>
            <source>The image could not be written to %1.</source>
            <translation>无法将图像写入 %1。</translation>
        </message>
        <message>
            <source>Exam…</source>
            <translation>检查…</translation>
        </message>
        <message>
            <source>End exam</source>
            <translation>结束检查</translation>
        </message>
        <message>
            <source>No exam</source>
            <translation>无检查</translation>
        </message>
        <message>
            <source>Export failed: %1</source>
            <translation>导出失败：%1</translation>
        </message>
        <message>
            <source>Exported: %1</source>
            <translation>已导出：%1</translation>
        </message>
        <message>
            <source>Exporting… %1 %</source>
            <translation>正在导出… %1 %</translation>
        </message>
        <message>
            <source>Export cine</source>
            <translation>导出动态图像</translation>
        </message>
        <message>
            <source>PACS queue</source>
            <translation>PACS 队列</translation>
        </message>
        <message>
            <source>Exporting…</source>
            <translation>正在导出…</translation>
        </message>
        <message>
            <source>Not exported: start an exam first (Exam…, Ctrl+N).</source>
            <translation>未导出：请先开始检查（检查…，Ctrl+N）。</translation>
        </message>
        <message>
            <source>Patient: %1, %2</source>
            <translation>患者：%1，%2</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>注释</translation>
        </message>
        <message>
            <source>Text at %1, %2 mm:</source>
            <translation>位置 %1, %2 mm 处的文字：</translation>
        </message>
        <message>
            <source>The measurements could not be written to %1: %2</source>
            <translation>无法将测量结果写入 %1：%2</translation>
        </message>
        <message>
            <source>Record</source>
            <translation>录制</translation>
        </message>
        <message>
            <source>Starting the recording…</source>
            <translation>正在开始录制…</translation>
        </message>
        <message>
            <source>● REC %1 frames, %2</source>
            <translation>● 录制中 %1 帧，%2</translation>
        </message>
        <message>
            <source>, %1 never arrived</source>
            <translation>，%1 帧未到达</translation>
        </message>
        <message>
            <source>Recording failed: %1 (%2 frames kept in %3)</source>
            <translation>录制失败：%1（%2 帧已保存在 %3）</translation>
        </message>
        <message>
            <source>Recorded %1 frames, %2, to %3</source>
            <translation>已录制 %1 帧，%2，保存到 %3</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>English</source>
            <translation>英语</translation>
        </message>
        <message>
            <source>Simplified Chinese (简体中文)</source>
            <translation>简体中文</translation>
        </message>
        <message>
            <source>The language changes at the next start.</source>
            <translation>语言将在下次启动时更改。</translation>
        </message>
        <message>
            <source>Settings…</source>
            <translation>设置…</translation>
        </message>
        <message>
            <source>Settings kept: they apply at the next start.</source>
            <translation>设置已保存：下次启动时生效。</translation>
        </message>
        <message>
            <source>Save preset</source>
            <translation>保存预设</translation>
        </message>
        <message>
            <source>Name of the preset:</source>
            <translation>预设名称：</translation>
        </message>
        <message>
            <source>Preset %1 kept.</source>
            <translation>预设 %1 已保存。</translation>
        </message>
        <message>
            <source>The kept settings were not used (Settings… to correct them): %1</source>
            <translation>保存的设置未被采用（请在“设置…”中更正）：%1</translation>
        </message>
        <message>
            <source>Export image</source>
            <translation>导出图像</translation>
        </message>
        <message>
            <source>Burn measurements into saved and exported images</source>
            <translation>将测量结果烧录到保存和导出的图像中</translation>
        </message>
        <message>
            <source>No image to export yet.</source>
            <translation>尚无可导出的图像。</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>帮助</translation>
        </message>
        <message>
            <source>Station check…</source>
            <translation>工作站检查…</translation>
        </message>
        <message>
            <source>About SonoLink</source>
            <translation>关于 SonoLink</translation>
        </message>
        <message>
            <source>&lt;b&gt;SonoLink %1&lt;/b&gt;&lt;br&gt;Ultrasound and photoacoustic acquisition and QA workstation.&lt;br&gt;Qt %2. Station check: Help menu, or &lt;code&gt;sonolink-cli doctor&lt;/code&gt;.</source>
            <translation>&lt;b&gt;SonoLink %1&lt;/b&gt;&lt;br&gt;超声与光声采集及质控工作站。&lt;br&gt;Qt %2。工作站检查：帮助菜单，或 &lt;code&gt;sonolink-cli doctor&lt;/code&gt;。</translation>
        </message>
        <message>
            <source>Archive</source>
            <translation>归档</translation>
        </message>
        <message>
            <source>SonoLink — Review: %1</source>
            <translation>SonoLink — 回顾：%1</translation>
        </message>
        <message>
            <source>Review: %1 (1 frame, in a loop)</source>
            <translation>回顾：%1（1 帧，循环播放）</translation>
        </message>
        <message>
            <source>Review: %1 (%2 frames, in a loop)</source>
            <translation>回顾：%1（%2 帧，循环播放）</translation>
        </message>
        <message>
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Review a DICOM cine…</source>
            <translation>回顾 DICOM 电影回放…</translation>
        </message>
        <message>
            <source>Review a DICOM cine</source>
            <translation>回顾 DICOM 电影回放</translation>
        </message>
        <message>
            <source>DICOM (*.dcm *.DCM);;All files (*)</source>
            <translation>DICOM (*.dcm *.DCM);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Review a DICOM cine from the archive…</source>
            <translation>回顾归档中的 DICOM 电影回放…</translation>
        </message>
        <message>
            <source>Review from the archive</source>
            <translation>从归档回顾</translation>
        </message>
        <message>
            <source>The object in the archive (s3://bucket/key):</source>
            <translation>归档中的对象 (s3://bucket/key)：</translation>
        </message>
        <message>
            <source>Opening %1…</source>
            <translation>正在打开 %1…</translation>
        </message>
        <message>
            <source>Cannot review %1: %2</source>
            <translation>无法回顾 %1：%2</translation>
        </message>
        <message>
            <source>0 frames/s: no new image for %1 s</source>
            <translation>0 帧/秒：已 %1 秒没有新图像</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop scanning; the link stays up (Live starts again)</source>
            <translation>停止扫描；链路保持连接（“实时”可重新开始）</translation>
        </message>
        <message>
            <source>Disconnect</source>
            <translation>断开</translation>
        </message>
        <message>
            <source>Stop scanning and close the link to the front end</source>
            <translation>停止扫描并关闭与前端的链路</translation>
        </message>
        <message>
            <source>Settings not kept: %1</source>
            <translation>设置未保存：%1</translation>
        </message>
        <message>
            <source>at every connect</source>
            <translation>每次连接时</translation>
        </message>
        <message>
            <source>off</source>
            <translation>关</translation>
        </message>
        <message>
            <source>start-up self-test %1 (%2) -&gt; %3 (%4)</source>
            <translation>启动自检 %1（%2）→ %3（%4）</translation>
        </message>
        <message>
            <source>Change the start-up self-test</source>
            <translation>更改启动自检</translation>
        </message>
        <message>
            <source>Only an engineer may change the start-up self-test (%1). Give the reason and your password: the change is recorded with your name.</source>
            <translation>只有工程师可以更改启动自检（%1）。请填写原因并输入密码：此更改将以您的名义记录。</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>理由</translation>
        </message>
        <message>
            <source>the change of the start-up self-test was not confirmed</source>
            <translation>启动自检的更改未获确认</translation>
        </message>
        <message>
            <source>Settings kept (%1, recorded): they apply at the next start.</source>
            <translation>设置已保存（%1，已记录）：下次启动时生效。</translation>
        </message>
        <message>
            <source>, born %1</source>
            <translation>，出生于 %1</translation>
        </message>
        <message>
            <source>%1   ID %2%3</source>
            <translation>%1   编号 %2%3</translation>
        </message>
        <message>
            <source>Review of the recording %1 (raw data: no patient)</source>
            <translation>回顾记录 %1（原始数据：无患者信息）</translation>
        </message>
    </context>
    <context>
        <name>sonolink::app::SelfTestSession</name>
        <message>
            <source>No report yet: the self-test has not finished.</source>
            <translation>尚无报告：自检尚未结束。</translation>
        </message>
        <message>
            <source>Saved as %1</source>
            <translation>已保存为 %1</translation>
        </message>
        <message>
            <source>the self-test could not finish: %1</source>
            <translation>自检未能完成：%1</translation>
        </message>
        <message>
            <source>The QA report could not be kept: %1</source>
            <translation>无法保存质控报告：%1</translation>
        </message>
        <message>
            <source>There is no kept report to sign.</source>
            <translation>没有可签名的已保存报告。</translation>
        </message>
        <message>
            <source>Not signed: %1</source>
            <translation>未签名：%1</translation>
        </message>
        <message>
            <source>Signed by %1 (%2), meaning: %3</source>
            <translation>签名人 %1（%2），含义：%3</translation>
        </message>
        <message>
            <source>No override was given: %1</source>
            <translation>未执行越权放行：%1</translation>
        </message>
        <message>
            <source>Scanning stops first: the self-test needs the link to itself.</source>
            <translation>先停止扫描：自检需要独占链路。</translation>
        </message>
        <message>
            <source>The self-test was not run: %1</source>
            <translation>自检未运行：%1</translation>
        </message>
        <message>
            <source>The self-test was not run: the station is %1 (%2)</source>
            <translation>自检未运行：工作站处于%1（%2）</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ArchiveView</name>
        <message>
            <source>queued</source>
            <translation>排队中</translation>
        </message>
        <message>
            <source>uploading</source>
            <translation>上传中</translation>
        </message>
        <message>
            <source>verified</source>
            <translation>已校验</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Recording</source>
            <translation>录制数据</translation>
        </message>
        <message>
            <source>Study</source>
            <translation>检查</translation>
        </message>
        <message>
            <source>verified %1</source>
            <translation>校验于 %1</translation>
        </message>
        <message>
            <source>next %1</source>
            <translation>下次 %1</translation>
        </message>
        <message>
            <source>kept: changed since its upload</source>
            <translation>保留：上传后已更改</translation>
        </message>
        <message>
            <source>deleted %1 (retention)</source>
            <translation>已于 %1 删除（保留期限）</translation>
        </message>
        <message>
            <source>kept</source>
            <translation>保留</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>What</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Object</source>
            <translation>对象</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>尝试次数</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <source>When</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Local copy</source>
            <translation>本地副本</translation>
        </message>
        <message>
            <source>Last error</source>
            <translation>最近错误</translation>
        </message>
        <message>
            <source>Queue the selected failed upload again</source>
            <translation>将所选失败的上传重新排队</translation>
        </message>
        <message>
            <source>No archive is configured: set archive.endpoint (and its bucket) in the station's configuration to keep recordings and studies on S3-compatible storage.</source>
            <translation>未配置归档：请在工作站配置中设置 archive.endpoint（及其存储桶），以便将录制数据和检查保存到兼容 S3 的存储中。</translation>
        </message>
        <message>
            <source>%1 waiting, %2 failed, %3 verified, %4 in all</source>
            <translation>%1 个等待，%2 个失败，%3 个已校验，共 %4 个</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::BModeView</name>
        <message>
            <source>No image yet</source>
            <translation>尚无图像</translation>
        </message>
        <message>
            <source>mm</source>
            <translation>mm</translation>
        </message>
        <message>
            <source>mm ×%1</source>
            <translation>毫米 ×%1</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::CineBar</name>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>Loop</source>
            <translation>循环</translation>
        </message>
        <message>
            <source>Cine</source>
            <translation>电影回放</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>%1 / %2</source>
            <translation>%1 / %2</translation>
        </message>
        <message>
            <source>no cine</source>
            <translation>无电影回放</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ExamDialog</name>
        <message>
            <source>e.g. 王</source>
            <translation>例如 王</translation>
        </message>
        <message>
            <source>e.g. 小明</source>
            <translation>例如 小明</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Start exam</source>
            <translation>开始检查</translation>
        </message>
        <message>
            <source>Query</source>
            <translation>查询</translation>
        </message>
        <message>
            <source>Exam</source>
            <translation>检查</translation>
        </message>
        <message>
            <source>Family name</source>
            <translation>姓（拼音）</translation>
        </message>
        <message>
            <source>Given name</source>
            <translation>名（拼音）</translation>
        </message>
        <message>
            <source>Family name (characters)</source>
            <translation>姓（汉字）</translation>
        </message>
        <message>
            <source>Given name (characters)</source>
            <translation>名（汉字）</translation>
        </message>
        <message>
            <source>Patient ID</source>
            <translation>患者编号</translation>
        </message>
        <message>
            <source>Birth date</source>
            <translation>出生日期</translation>
        </message>
        <message>
            <source>female</source>
            <translation>女</translation>
        </message>
        <message>
            <source>male</source>
            <translation>男</translation>
        </message>
        <message>
            <source>other</source>
            <translation>其他</translation>
        </message>
        <message>
            <source>Sex</source>
            <translation>性别</translation>
        </message>
        <message>
            <source>Accession number</source>
            <translation>检查号</translation>
        </message>
        <message>
            <source>Study description</source>
            <translation>检查描述</translation>
        </message>
        <message>
            <source>Patient</source>
            <translation>患者</translation>
        </message>
        <message>
            <source>Node</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>Date</source>
            <translation>日期</translation>
        </message>
        <message>
            <source>ID</source>
            <translation>编号</translation>
        </message>
        <message>
            <source>Procedure</source>
            <translation>检查项目</translation>
        </message>
        <message>
            <source>Accession</source>
            <translation>检查号</translation>
        </message>
        <message>
            <source>No worklist node is configured (Settings).</source>
            <translation>未配置工作列表节点（设置）。</translation>
        </message>
        <message>
            <source>Use</source>
            <translation>使用</translation>
        </message>
        <message>
            <source>Worklist</source>
            <translation>工作列表</translation>
        </message>
        <message>
            <source>Asking %1…</source>
            <translation>正在查询 %1…</translation>
        </message>
        <message>
            <source>The worklist query failed: %1</source>
            <translation>工作列表查询失败：%1</translation>
        </message>
        <message>
            <source>Nothing scheduled.</source>
            <translation>没有预约的检查。</translation>
        </message>
        <message>
            <source>Scheduled exams: %1</source>
            <translation>预约检查：%1</translation>
        </message>
        <message>
            <source>Scheduled</source>
            <translation>预约时间</translation>
        </message>
        <message>
            <source>Body Part Examined, written to every image of the exam (DICOM's defined terms; another may be typed)</source>
            <translation>检查部位，写入本次检查的每幅图像（DICOM 定义的术语；也可输入其他部位）</translation>
        </message>
        <message>
            <source>Body part</source>
            <translation>检查部位</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ExamEntry</name>
        <message>
            <source>family name</source>
            <translation>姓</translation>
        </message>
        <message>
            <source>given name</source>
            <translation>名</translation>
        </message>
        <message>
            <source>family name (characters)</source>
            <translation>姓（汉字）</translation>
        </message>
        <message>
            <source>given name (characters)</source>
            <translation>名（汉字）</translation>
        </message>
        <message>
            <source>The %1 may not contain ^, =, \ or a line break.</source>
            <translation>%1不能包含 ^、=、\ 或换行。</translation>
        </message>
        <message>
            <source>A family name is needed.</source>
            <translation>需要填写姓。</translation>
        </message>
        <message>
            <source>The name is longer than DICOM's 64 characters.</source>
            <translation>姓名超过 DICOM 规定的 64 个字符。</translation>
        </message>
        <message>
            <source>The name in characters is longer than DICOM's 64 characters.</source>
            <translation>汉字姓名超过 DICOM 规定的 64 个字符。</translation>
        </message>
        <message>
            <source>A patient ID is needed.</source>
            <translation>需要填写患者编号。</translation>
        </message>
        <message>
            <source>The patient ID is longer than DICOM's 64 characters.</source>
            <translation>患者编号超过 DICOM 规定的 64 个字符。</translation>
        </message>
        <message>
            <source>The patient ID may not contain \ or a line break.</source>
            <translation>患者编号不能包含 \ 或换行。</translation>
        </message>
        <message>
            <source>The birth date is in the future.</source>
            <translation>出生日期晚于今天。</translation>
        </message>
        <message>
            <source>The birth date is before 1900.</source>
            <translation>出生日期早于 1900 年。</translation>
        </message>
        <message>
            <source>Sex must be M, F, O or unknown.</source>
            <translation>性别必须为 M、F、O 或未知。</translation>
        </message>
        <message>
            <source>The accession number is longer than DICOM's 16 characters.</source>
            <translation>检查号超过 DICOM 规定的 16 个字符。</translation>
        </message>
        <message>
            <source>The study description is longer than DICOM's 64 characters.</source>
            <translation>检查描述超过 DICOM 规定的 64 个字符。</translation>
        </message>
        <message>
            <source>The body part must be up to 16 capitals, digits, _ or spaces.</source>
            <translation>检查部位最多 16 个字符，只能是大写字母、数字、_ 或空格。</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ImagingPanel</name>
        <message>
            <source>Picture</source>
            <translation>图像</translation>
        </message>
        <message>
            <source>Gain (dB)</source>
            <translation>增益 (dB)</translation>
        </message>
        <message>
            <source>Range (dB)</source>
            <translation>动态范围 (dB)</translation>
        </message>
        <message>
            <source> mm</source>
            <translation> 毫米</translation>
        </message>
        <message>
            <source>Depth</source>
            <translation>深度</translation>
        </message>
        <message>
            <source>off</source>
            <translation>关</translation>
        </message>
        <message>
            <source>Persistence</source>
            <translation>帧平均</translation>
        </message>
        <message>
            <source>TGC (dB)</source>
            <translation>时间增益补偿 (dB)</translation>
        </message>
        <message>
            <source>Time-gain compensation, band %1 of %2 (near to far)</source>
            <translation>时间增益补偿，第 %1 段，共 %2 段（由浅至深）</translation>
        </message>
        <message>
            <source>Save…</source>
            <translation>保存…</translation>
        </message>
        <message>
            <source>Keep these settings as a preset</source>
            <translation>将当前设置保存为预设</translation>
        </message>
        <message>
            <source>Preset</source>
            <translation>预设</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::LinkHealthPanel</name>
        <message>
            <source>Throughput</source>
            <translation>吞吐量</translation>
        </message>
        <message>
            <source>Gb/s</source>
            <translation>Gb/s</translation>
        </message>
        <message>
            <source>payload</source>
            <translation>有效载荷</translation>
        </message>
        <message>
            <source>CRC / header errors</source>
            <translation>CRC / 包头错误</translation>
        </message>
        <message>
            <source>per 0.5 s</source>
            <translation>每 0.5 秒</translation>
        </message>
        <message>
            <source>CRC</source>
            <translation>CRC</translation>
        </message>
        <message>
            <source>header</source>
            <translation>包头</translation>
        </message>
        <message>
            <source>Frames dropped</source>
            <translation>丢帧</translation>
        </message>
        <message>
            <source>dropped</source>
            <translation>丢弃</translation>
        </message>
        <message>
            <source>Latency</source>
            <translation>延迟</translation>
        </message>
        <message>
            <source>ms</source>
            <translation>毫秒</translation>
        </message>
        <message>
            <source>p50</source>
            <translation>p50</translation>
        </message>
        <message>
            <source>p99</source>
            <translation>p99</translation>
        </message>
        <message>
            <source>PTP offset</source>
            <translation>PTP 偏差</translation>
        </message>
        <message>
            <source>µs</source>
            <translation>微秒</translation>
        </message>
        <message>
            <source>Front-end temperature</source>
            <translation>前端温度</translation>
        </message>
        <message>
            <source>°C</source>
            <translation>°C</translation>
        </message>
        <message>
            <source>temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>not measured</source>
            <translation>未测量</translation>
        </message>
        <message>
            <source>no free buffer</source>
            <translation>无空闲缓冲区</translation>
        </message>
        <message>
            <source>blocks missing</source>
            <translation>数据块缺失</translation>
        </message>
        <message>
            <source>frames never seen</source>
            <translation>帧未到达</translation>
        </message>
        <message>
            <source>front end out of credit</source>
            <translation>前端信用不足</translation>
        </message>
        <message>
            <source>Most dropped: %1 (%2)</source>
            <translation>丢帧主因：%1（%2）</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>未上报</translation>
        </message>
        <message>
            <source>|offset|, at least</source>
            <translation>|偏差| 下限</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::Measurement</name>
        <message>
            <source>%1  %2 mm</source>
            <translation>%1  %2 mm</translation>
        </message>
        <message>
            <source>%1  %2 mm², circumference %3 mm</source>
            <translation>%1  %2 mm²，周长 %3 mm</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::MeasurementPanel</name>
        <message>
            <source>Measurements</source>
            <translation>测量</translation>
        </message>
        <message>
            <source>Distance</source>
            <translation>距离</translation>
        </message>
        <message>
            <source>Ellipse</source>
            <translation>椭圆</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>文字</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>清除</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ProbeTab</name>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Elements</source>
            <translation>阵元数</translation>
        </message>
        <message>
            <source>Pitch (mm)</source>
            <translation>阵元间距 (mm)</translation>
        </message>
        <message>
            <source>Centre (MHz)</source>
            <translation>中心频率 (MHz)</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Probe in use</source>
            <translation>使用的探头</translation>
        </message>
        <message>
            <source>The front end is set for the probe in use at the next start: its element count, pitch and centre frequency.</source>
            <translation>下次启动时按所用探头设置前端：阵元数、阵元间距和中心频率。</translation>
        </message>
        <message>
            <source>new-probe</source>
            <translation>新探头</translation>
        </message>
        <message>
            <source>As configured</source>
            <translation>按配置文件</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::QaReportPage</name>
        <message>
            <source>Sign…</source>
            <translation>签名…</translation>
        </message>
        <message>
            <source>Override…</source>
            <translation>越权放行…</translation>
        </message>
        <message>
            <source>QA report</source>
            <translation>质控报告</translation>
        </message>
        <message>
            <source>The record of this start: every step's verdict, figures, limit and baseline, under its SHA-256. Sign it to approve it; print or save it for the station's file.</source>
            <translation>本次启动的记录：每个步骤的结论、测量值、限值与基线，并以 SHA-256 保护。签名即表示批准；可打印或保存以归入本工作站档案。</translation>
        </message>
        <message>
            <source>Save PDF…</source>
            <translation>保存 PDF…</translation>
        </message>
        <message>
            <source>Print…</source>
            <translation>打印…</translation>
        </message>
        <message>
            <source>Not kept yet</source>
            <translation>尚未保存</translation>
        </message>
        <message>
            <source>Kept as %1 (and its PDF beside it)</source>
            <translation>已保存为 %1（同目录下另有 PDF）</translation>
        </message>
        <message>
            <source>Signed already</source>
            <translation>已签名</translation>
        </message>
        <message>
            <source>Acquisition is blocked: %1</source>
            <translation>采集被阻止：%1</translation>
        </message>
        <message>
            <source>Save the QA report</source>
            <translation>保存质控报告</translation>
        </message>
        <message>
            <source>PDF (*.pdf)</source>
            <translation>PDF (*.pdf)</translation>
        </message>
        <message>
            <source>Sign</source>
            <translation>签名</translation>
        </message>
        <message>
            <source>Your signature is bound to this report's content: your password proves who you are, and the meaning says what you sign for.</source>
            <translation>您的签名与本报告内容绑定：密码证明您的身份，含义说明您签署的内容。</translation>
        </message>
        <message>
            <source>Meaning</source>
            <translation>含义</translation>
        </message>
        <message>
            <source>reviewed and approved</source>
            <translation>已审阅并批准</translation>
        </message>
        <message>
            <source>performed the tests</source>
            <translation>已执行测试</translation>
        </message>
        <message>
            <source>reviewed</source>
            <translation>已审阅</translation>
        </message>
        <message>
            <source>Override</source>
            <translation>越权放行</translation>
        </message>
        <message>
            <source>A failed step blocks acquisition: %1. An override lets this station acquire until the next start. It is recorded, with your name and reason, in the QA report and the audit trail.</source>
            <translation>有未通过的步骤阻止采集：%1。越权放行后本工作站可采集至下次启动。放行将连同您的姓名与理由记入质控报告和审计日志。</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>理由</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::QueueView</name>
        <message>
            <source>queued</source>
            <translation>排队中</translation>
        </message>
        <message>
            <source>sending</source>
            <translation>发送中</translation>
        </message>
        <message>
            <source>sent</source>
            <translation>已发送</translation>
        </message>
        <message>
            <source>committed</source>
            <translation>已确认存储</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Withdraw</source>
            <translation>撤回</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>条目</translation>
        </message>
        <message>
            <source>Patient</source>
            <translation>患者</translation>
        </message>
        <message>
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Node</source>
            <translation>节点</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>尝试次数</translation>
        </message>
        <message>
            <source>Next attempt</source>
            <translation>下次尝试</translation>
        </message>
        <message>
            <source>Last error</source>
            <translation>最近错误</translation>
        </message>
        <message>
            <source>%1 waiting, %2 failed, %3 in all</source>
            <translation>%1 个等待，%2 个失败，共 %3 个</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::ReauthenticationDialog</name>
        <message>
            <source>User</source>
            <translation>用户</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>密码</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::RfPanel</name>
        <message>
            <source>e.g. 0, 63, 127</source>
            <translation>例如 0, 63, 127</translation>
        </message>
        <message>
            <source>Channels to show, 0 to %1, up to %2, separated by commas or spaces</source>
            <translation>要显示的通道，0 至 %1，最多 %2 个，以逗号或空格分隔</translation>
        </message>
        <message>
            <source>Channels</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>%1 is not a channel (0 to %2)</source>
            <translation>%1 不是有效通道（0 至 %2）</translation>
        </message>
        <message>
            <source>at most %1 channels at once</source>
            <translation>一次最多 %1 个通道</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::RfTracePlot</name>
        <message>
            <source>time (µs)</source>
            <translation>时间 (µs)</translation>
        </message>
        <message>
            <source>amplitude (ADC counts)</source>
            <translation>幅度 (ADC 计数)</translation>
        </message>
        <message>
            <source>channel %1</source>
            <translation>通道 %1</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::SelfTestPage</name>
        <message>
            <source>pass</source>
            <translation>通过</translation>
        </message>
        <message>
            <source>warning</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>FAIL</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>running</source>
            <translation>进行中</translation>
        </message>
        <message>
            <source>Run again</source>
            <translation>重新运行</translation>
        </message>
        <message>
            <source>Cancel test</source>
            <translation>取消测试</translation>
        </message>
        <message>
            <source>Details…</source>
            <translation>详情…</translation>
        </message>
        <message>
            <source>Start-up self-test</source>
            <translation>启动自检</translation>
        </message>
        <message>
            <source>Before anyone scans, the station proves its set-up, the DMA ring's memory, the link's bit error rate, the probe's elements and the imaging chain on the front end's phantom, and that the PACS answers.</source>
            <translation>在任何扫描之前，工作站逐项验证：系统设置、DMA 环形缓冲区内存、链路误码率、探头阵元、基于前端体模的成像链路，以及 PACS 是否应答。</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步骤</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>结论</translation>
        </message>
        <message>
            <source>Time (s)</source>
            <translation>用时 (秒)</translation>
        </message>
        <message>
            <source>Figures</source>
            <translation>测量值</translation>
        </message>
        <message>
            <source>Runs the selected steps again (every step when none is selected)</source>
            <translation>重新运行所选步骤（未选择时运行全部步骤）</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>正在开始…</translation>
        </message>
        <message>
            <source>%1

What to do: %2</source>
            <translation>%1

处理方法：%2</translation>
        </message>
        <message>
            <source>Under way: %1</source>
            <translation>进行中：%1</translation>
        </message>
        <message>
            <source>Under way: %1 (%2)</source>
            <translation>进行中：%1（%2）</translation>
        </message>
        <message>
            <source>Finished: %1 passed, %2 with a warning, %3 failed</source>
            <translation>已完成：%1 项通过，%2 项警告，%3 项失败</translation>
        </message>
        <message>
            <source>Acquisition may start.</source>
            <translation>可以开始采集。</translation>
        </message>
        <message>
            <source>Acquisition is blocked: %1. Run the step again once fixed, or give an override with its reason on the next page.</source>
            <translation>采集被阻止：%1。排除故障后请重新运行该步骤，或在下一页填写理由执行越权放行。</translation>
        </message>
        <message>
            <source>Self-test step: %1</source>
            <translation>自检步骤：%1</translation>
        </message>
        <message>
            <source>%1 (with channel %2)</source>
            <translation>%1（与通道 %2）</translation>
        </message>
        <message>
            <source>Element map, %1 channels (green: ok; amber: weak or noisy; red: dead, swapped or uncorrelated)</source>
            <translation>阵元图，共 %1 个通道（绿色：正常；琥珀色：信号弱或噪声大；红色：失效、接错或不相关）</translation>
        </message>
        <message numerus="yes">
            <source>%n flagged channel(s)</source>
            <translation>
                <numerusform>%n 个异常通道</numerusform>
            </translation>
        </message>
        <message>
            <source>Channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>Fault</source>
            <translation>故障</translation>
        </message>
        <message>
            <source>RMS (counts)</source>
            <translation>均方根 (计数)</translation>
        </message>
        <message>
            <source>SNR (dB)</source>
            <translation>信噪比 (dB)</translation>
        </message>
        <message>
            <source>Neighbour correlation</source>
            <translation>相邻相关性</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>限值</translation>
        </message>
        <message>
            <source>What to do</source>
            <translation>处理方法</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>用时</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>Blocks acquisition</source>
            <translation>阻止采集</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>Bits compared</source>
            <translation>比对比特数</translation>
        </message>
        <message>
            <source>Bit errors</source>
            <translation>误码数</translation>
        </message>
        <message>
            <source>Losses of pattern lock</source>
            <translation>码型失锁次数</translation>
        </message>
        <message>
            <source>Blocks with CRC errors</source>
            <translation>CRC 错误块数</translation>
        </message>
        <message>
            <source>BER measured</source>
            <translation>实测误码率</translation>
        </message>
        <message>
            <source>BER upper bound</source>
            <translation>误码率上限</translation>
        </message>
        <message>
            <source>station</source>
            <translation>工作站</translation>
        </message>
        <message>
            <source>ring memory</source>
            <translation>环形缓冲区内存</translation>
        </message>
        <message>
            <source>link BER</source>
            <translation>链路误码率</translation>
        </message>
        <message>
            <source>ring slots (DMA path)</source>
            <translation>环形缓冲区槽位（DMA 通路）</translation>
        </message>
        <message>
            <source>element check</source>
            <translation>阵元检查</translation>
        </message>
        <message>
            <source>phantom check</source>
            <translation>体模检查</translation>
        </message>
        <message>
            <source>PACS</source>
            <translation>PACS</translation>
        </message>
        <message>
            <source>memlock limit</source>
            <translation>内存锁定上限</translation>
        </message>
        <message>
            <source>huge pages</source>
            <translation>大页内存</translation>
        </message>
        <message>
            <source>CPU governor</source>
            <translation>CPU 调频策略</translation>
        </message>
        <message>
            <source>GPU</source>
            <translation>GPU</translation>
        </message>
        <message>
            <source>RDMA port</source>
            <translation>RDMA 端口</translation>
        </message>
        <message>
            <source>NUMA locality</source>
            <translation>NUMA 亲和性</translation>
        </message>
        <message>
            <source>PTP clock</source>
            <translation>PTP 时钟</translation>
        </message>
        <message>
            <source>writable folder</source>
            <translation>可写文件夹</translation>
        </message>
        <message>
            <source>free disk</source>
            <translation>磁盘剩余空间</translation>
        </message>
        <message>
            <source>recordings</source>
            <translation>录制数据</translation>
        </message>
        <message>
            <source>DICOM queue</source>
            <translation>DICOM 队列</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>ok</source>
            <translation>正常</translation>
        </message>
        <message>
            <source>dead</source>
            <translation>失效</translation>
        </message>
        <message>
            <source>weak</source>
            <translation>信号弱</translation>
        </message>
        <message>
            <source>noisy</source>
            <translation>噪声大</translation>
        </message>
        <message>
            <source>swapped</source>
            <translation>接错</translation>
        </message>
        <message>
            <source>uncorrelated</source>
            <translation>不相关</translation>
        </message>
        <message>
            <source>QA reports</source>
            <translation>质控报告</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::SelfTestWizard</name>
        <message>
            <source>SonoLink start-up self-test</source>
            <translation>SonoLink 启动自检</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Start scanning</source>
            <translation>开始扫描</translation>
        </message>
        <message>
            <source>Overridden by %1: %2. Acquisition may start; the override is in the report and the audit trail.</source>
            <translation>已由 %1 越权放行：%2。可以开始采集；此次放行已记入报告和审计日志。</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::SettingsDialog</name>
        <message>
            <source>Browse…</source>
            <translation>浏览…</translation>
        </message>
        <message>
            <source>PEM file</source>
            <translation>PEM 文件</translation>
        </message>
        <message>
            <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
            <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Run the self-test at every connect</source>
            <translation>每次连接时运行自检</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Station AE title</source>
            <translation>本机 AE 名称</translation>
        </message>
        <message>
            <source>Station name</source>
            <translation>工作站名称</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>AE title</source>
            <translation>AE 名称</translation>
        </message>
        <message>
            <source>Host</source>
            <translation>主机</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>端口</translation>
        </message>
        <message>
            <source>TLS</source>
            <translation>TLS</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Test (C-ECHO)</source>
            <translation>测试 (C-ECHO)</translation>
        </message>
        <message>
            <source>DICOM</source>
            <translation>DICOM</translation>
        </message>
        <message>
            <source>new-node</source>
            <translation>新节点</translation>
        </message>
        <message>
            <source>Asking %1…</source>
            <translation>正在查询 %1…</translation>
        </message>
        <message>
            <source>For the nodes marked TLS: this station's certificate and key, and the CAs that sign the nodes'.</source>
            <translation>用于标记为 TLS 的节点：本机的证书和私钥，以及签发节点证书的 CA。</translation>
        </message>
        <message>
            <source>Certificate</source>
            <translation>证书</translation>
        </message>
        <message>
            <source>Private key</source>
            <translation>私钥</translation>
        </message>
        <message>
            <source>Trusted certificates</source>
            <translation>受信任的证书</translation>
        </message>
        <message>
            <source>quick</source>
            <translation>快速</translation>
        </message>
        <message>
            <source>full</source>
            <translation>完整</translation>
        </message>
        <message>
            <source>English</source>
            <translation>英语</translation>
        </message>
        <message>
            <source>Simplified Chinese (简体中文)</source>
            <translation>简体中文</translation>
        </message>
        <message>
            <source>Self-test</source>
            <translation>自检</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>Start-up</source>
            <translation>启动</translation>
        </message>
        <message>
            <source>Kept settings apply at the next start.</source>
            <translation>保存的设置在下次启动时生效。</translation>
        </message>
        <message>
            <source>%1 answered: %2</source>
            <translation>%1 已应答：%2</translation>
        </message>
        <message>
            <source>%1 did not answer: %2</source>
            <translation>%1 未应答：%2</translation>
        </message>
        <message>
            <source>Probe</source>
            <translation>探头</translation>
        </message>
        <message>
            <source>Send a C-ECHO to this node as shown here (an edited or new node is asked before it is kept)</source>
            <translation>按此处所示向该节点发送 C-ECHO（修改或新增的节点在保存前即可测试）</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::StationCheckDialog</name>
        <message>
            <source>configuration</source>
            <translation>配置</translation>
        </message>
        <message>
            <source>RDMA device and permissions</source>
            <translation>RDMA 设备与权限</translation>
        </message>
        <message>
            <source>Qt platform plugin</source>
            <translation>Qt 平台插件</translation>
        </message>
        <message>
            <source>display</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>fonts for Chinese</source>
            <translation>中文字体</translation>
        </message>
        <message>
            <source>PACS nodes</source>
            <translation>PACS 节点</translation>
        </message>
        <message>
            <source>time synchronised</source>
            <translation>时间同步</translation>
        </message>
        <message>
            <source>Check again</source>
            <translation>重新检查</translation>
        </message>
        <message>
            <source>Copy report</source>
            <translation>复制报告</translation>
        </message>
        <message>
            <source>Station check</source>
            <translation>工作站检查</translation>
        </message>
        <message>
            <source>What this station needs to acquire, show and send studies, checked now: the same checks as &lt;code&gt;sonolink-cli doctor&lt;/code&gt;. Select a check for what to do.</source>
            <translation>本工作站采集、显示和发送检查所需的一切，现在逐项检查（与 &lt;code&gt;sonolink-cli doctor&lt;/code&gt; 相同）。选中一项可查看处理方法。</translation>
        </message>
        <message>
            <source>Check</source>
            <translation>检查项</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>结论</translation>
        </message>
        <message>
            <source>Figures</source>
            <translation>测量值</translation>
        </message>
        <message>
            <source>Checking the station…</source>
            <translation>正在检查工作站…</translation>
        </message>
        <message>
            <source>the built-in defaults</source>
            <translation>内置默认配置</translation>
        </message>
        <message>
            <source>Failed: %1, warnings: %2. The station cannot do all it should until the failures are fixed (%3).</source>
            <translation>失败：%1，警告：%2。排除失败项之前，工作站无法完成全部功能（%3）。</translation>
        </message>
        <message>
            <source>Nothing failed; warnings: %1 (%2).</source>
            <translation>没有失败项；警告：%1（%2）。</translation>
        </message>
        <message>
            <source>Every check passed (%1).</source>
            <translation>全部检查通过（%1）。</translation>
        </message>
        <message>
            <source>Limit:</source>
            <translation>限值：</translation>
        </message>
        <message>
            <source>What to do:</source>
            <translation>处理方法：</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::StationSettings</name>
        <message>
            <source>TLS needs the %1 file.</source>
            <translation>TLS 需要%1文件。</translation>
        </message>
        <message>
            <source>The %1 file %2 cannot be read.</source>
            <translation>无法读取%1文件 %2。</translation>
        </message>
        <message>
            <source>is empty</source>
            <translation>为空</translation>
        </message>
        <message>
            <source>is longer than 16 characters</source>
            <translation>超过 16 个字符</translation>
        </message>
        <message>
            <source>may hold only printable ASCII characters, no backslash</source>
            <translation>只能包含可打印的 ASCII 字符，不能有反斜杠</translation>
        </message>
        <message>
            <source>The station's AE title %1.</source>
            <translation>本机 AE 名称%1。</translation>
        </message>
        <message>
            <source>The station name is longer than DICOM's 16 characters.</source>
            <translation>工作站名称超过 DICOM 规定的 16 个字符。</translation>
        </message>
        <message>
            <source>Node %1</source>
            <translation>节点 %1</translation>
        </message>
        <message>
            <source>%1 has no name.</source>
            <translation>%1没有名称。</translation>
        </message>
        <message>
            <source>%1 is named twice.</source>
            <translation>%1名称重复。</translation>
        </message>
        <message>
            <source>%1: its AE title %2.</source>
            <translation>%1：其 AE 名称%2。</translation>
        </message>
        <message>
            <source>%1 has no host.</source>
            <translation>%1没有主机。</translation>
        </message>
        <message>
            <source>%1: port %2 is not 1 to 65535.</source>
            <translation>%1：端口 %2 不在 1 至 65535 之间。</translation>
        </message>
        <message>
            <source>certificate</source>
            <translation>证书</translation>
        </message>
        <message>
            <source>private key</source>
            <translation>私钥</translation>
        </message>
        <message>
            <source>trusted certificates</source>
            <translation>受信任的证书</translation>
        </message>
        <message>
            <source>The self-test mode must be quick or full.</source>
            <translation>自检模式必须为快速或完整。</translation>
        </message>
        <message>
            <source>Probe %1</source>
            <translation>探头 %1</translation>
        </message>
        <message>
            <source>%1: %2 elements is not 1 to %3.</source>
            <translation>%1：阵元数 %2 不在 1 到 %3 之间。</translation>
        </message>
        <message>
            <source>%1: a pitch of %2 mm is not %3 to %4 mm.</source>
            <translation>%1：阵元间距 %2 mm 不在 %3 到 %4 mm 之间。</translation>
        </message>
        <message>
            <source>%1: a centre frequency of %2 MHz is not %3 to %4 MHz.</source>
            <translation>%1：中心频率 %2 MHz 不在 %3 到 %4 MHz 之间。</translation>
        </message>
        <message>
            <source>The probe in use, %1, is not listed.</source>
            <translation>所用探头 %1 不在列表中。</translation>
        </message>
    </context>
</TS>
