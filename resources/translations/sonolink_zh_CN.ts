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
        <message>
            <source> (while %1)</source>
            <translation>（正在%1）</translation>
        </message>
    </context>
    <context>
        <name>QaReport</name>
        <message>
            <source>pass</source>
            <translation>通过</translation>
        </message>
        <message>
            <source>warn</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>fail</source>
            <translation>不通过</translation>
        </message>
        <message>
            <source>What to do:</source>
            <translation>处理方法：</translation>
        </message>
        <message>
            <source>Signature</source>
            <translation>签名</translation>
        </message>
        <message>
            <source>Printed name</source>
            <translation>签名人姓名</translation>
        </message>
        <message>
            <source>Date and time (UTC)</source>
            <translation>日期和时间 (UTC)</translation>
        </message>
        <message>
            <source>Meaning</source>
            <translation>含义</translation>
        </message>
        <message>
            <source>Signed electronically by the station user %1 after re-authentication (%2).</source>
            <translation>由工作站用户 %1 重新认证（%2）后电子签名。</translation>
        </message>
        <message>
            <source>Not signed. The operator signs as the logged-in station user, re-authenticated; a name typed into a field is no signature.</source>
            <translation>未签名。操作者须以已登录的工作站用户身份重新认证后签名；在输入框中键入的姓名不构成签名。</translation>
        </message>
        <message>
            <source>SonoLink QA report</source>
            <translation>SonoLink 质控报告</translation>
        </message>
        <message>
            <source>Station</source>
            <translation>工作站</translation>
        </message>
        <message>
            <source>Operator</source>
            <translation>操作者</translation>
        </message>
        <message>
            <source>Software</source>
            <translation>软件</translation>
        </message>
        <message>
            <source>SonoLink %1 (build %2, %3)</source>
            <translation>SonoLink %1（构建 %2，%3）</translation>
        </message>
        <message>
            <source>Front end</source>
            <translation>前端</translation>
        </message>
        <message>
            <source>serial %1, firmware %2</source>
            <translation>序列号 %1，固件 %2</translation>
        </message>
        <message>
            <source>Link</source>
            <translation>链路</translation>
        </message>
        <message>
            <source>Mode</source>
            <translation>模式</translation>
        </message>
        <message>
            <source>Started</source>
            <translation>开始</translation>
        </message>
        <message>
            <source>Finished</source>
            <translation>结束</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>结论</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>Streaming blocked by</source>
            <translation>阻止采集的步骤</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>步骤</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步骤</translation>
        </message>
        <message>
            <source>Figures</source>
            <translation>测量值</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>限值</translation>
        </message>
        <message>
            <source>Baseline (last pass)</source>
            <translation>基线（上次通过）</translation>
        </message>
        <message>
            <source>Override</source>
            <translation>越权放行</translation>
        </message>
        <message>
            <source>Given by</source>
            <translation>放行人</translation>
        </message>
        <message>
            <source>When (UTC)</source>
            <translation>时间 (UTC)</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>理由</translation>
        </message>
        <message>
            <source>Baselines from %1 (finished %2, SHA-256 %3).</source>
            <translation>基线来自 %1（完成于 %2，SHA-256 %3）。</translation>
        </message>
        <message>
            <source>Report SHA-256 (its JSON without this field, compact, keys sorted): %1</source>
            <translation>报告 SHA-256（其 JSON 去掉本字段、紧凑格式、键排序）：%1</translation>
        </message>
        <message>
            <source>SonoLink QA report, %1, SHA-256 %2</source>
            <translation>SonoLink 质控报告，%1，SHA-256 %2</translation>
        </message>
        <message>
            <source>%1, page %2 of %3</source>
            <translation>%1，第 %2 页，共 %3 页</translation>
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
            <translation>采集</translation>
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
            <source>Review of the recording %1 (raw data: no patient)</source>
            <translation>回顾记录 %1（原始数据：无患者信息）</translation>
        </message>
        <message>
            <source>%1   ID %2%3   %4</source>
            <translation>%1   编号 %2%3   %4</translation>
        </message>
        <message>
            <source>Laser %1 shots/s</source>
            <translation>激光 %1 次/秒</translation>
        </message>
        <message>
            <source>Laser idle</source>
            <translation>激光空闲</translation>
        </message>
        <message>
            <source>, %1 mJ</source>
            <translation>，%1 mJ</translation>
        </message>
        <message>
            <source>, %1 missed</source>
            <translation>，漏发 %1 次</translation>
        </message>
        <message>
            <source>%1 shots fired, %2 missed, late or dark (never imaged); pulse to picture p99 %3 ms</source>
            <translation>已发射 %1 次，漏发、迟发或无脉冲 %2 次（均不成像）；脉冲到显示 p99 %3 ms</translation>
        </message>
        <message>
            <source>Hosts</source>
            <translation>采集主机</translation>
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
        <name>sonolink::gui::EngineBridge</name>
        <message>
            <source>command</source>
            <translation>命令</translation>
        </message>
        <message>
            <source>link</source>
            <translation>链路</translation>
        </message>
        <message>
            <source>front end</source>
            <translation>前端</translation>
        </message>
        <message>
            <source>recorder</source>
            <translation>录制</translation>
        </message>
        <message>
            <source>PACS</source>
            <translation>PACS</translation>
        </message>
        <message>
            <source>export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>imager</source>
            <translation>成像</translation>
        </message>
        <message>
            <source>engine</source>
            <translation>引擎</translation>
        </message>
        <message>
            <source>warning</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>error</source>
            <translation>错误</translation>
        </message>
        <message>
            <source>critical</source>
            <translation>严重</translation>
        </message>
        <message>
            <source>%1 %2: %3: %4</source>
            <translation>%1%2：%3：%4</translation>
        </message>
        <message>
            <source>%1 %2 in %3: %4: %5</source>
            <translation>%1%2（%3）：%4：%5</translation>
        </message>
        <message>
            <source> (while %1)</source>
            <translation>（正在%1）</translation>
        </message>
    </context>
    <context>
        <name>sonolink::gui::EngineText</name>
        <message>
            <source>locked memory limit %1 MiB%2</source>
            <translation>锁定内存上限 %1 MiB%2</translation>
        </message>
        <message>
            <source> (CAP_IPC_LOCK: it does not apply)</source>
            <translation>（具有 CAP_IPC_LOCK：该上限不适用）</translation>
        </message>
        <message>
            <source>&gt;= %1 MiB (the %2 MiB ring, its queues and work requests), unlimited, or CAP_IPC_LOCK</source>
            <translation>&gt;= %1 MiB（%2 MiB 的环形缓冲区及其队列和工作请求），或不限，或具有 CAP_IPC_LOCK</translation>
        </message>
        <message>
            <source>locked memory: unlimited</source>
            <translation>锁定内存：不限</translation>
        </message>
        <message>
            <source>the ring cannot be registered: raise the limit to at least %1 MiB. The package's /etc/security/limits.d/99-sonolink-memlock.conf lifts it for the sonolink group: `sudo adduser $USER sonolink`, then log in again (a build tree: install installer/limits.d/99-sonolink-memlock.conf there; a systemd unit: LimitMEMLOCK=infinity)</source>
            <translation>环形缓冲区无法注册：请将该上限提高到至少 %1 MiB。软件包的 /etc/security/limits.d/99-sonolink-memlock.conf 为 sonolink 组解除此限制：执行 `sudo adduser $USER sonolink`，然后重新登录（构建目录：在那里安装 installer/limits.d/99-sonolink-memlock.conf；systemd 单元：LimitMEMLOCK=infinity）</translation>
        </message>
        <message>
            <source>%1 huge pages of %2 MiB, %3 free</source>
            <translation>%1 个 %2 MiB 的大页，%3 个空闲</translation>
        </message>
        <message>
            <source>%1; the ring does not use them (link.huge_pages off)</source>
            <translation>%1；环形缓冲区不使用大页（link.huge_pages 已关闭）</translation>
        </message>
        <message>
            <source>none needed</source>
            <translation>无需</translation>
        </message>
        <message>
            <source>&gt;= %1 free huge pages for the %2 MiB ring</source>
            <translation>为 %2 MiB 的环形缓冲区提供 &gt;= %1 个空闲大页</translation>
        </message>
        <message>
            <source>this kernel has no huge pages</source>
            <translation>此内核不支持大页</translation>
        </message>
        <message>
            <source>set link.huge_pages to false, or use a kernel with huge pages</source>
            <translation>将 link.huge_pages 设为 false，或使用支持大页的内核</translation>
        </message>
        <message>
            <source>reserve them: echo %1 &gt; /proc/sys/vm/nr_hugepages (vm.nr_hugepages in /etc/sysctl.d to keep it), or set link.huge_pages to false</source>
            <translation>预留大页：echo %1 &gt; /proc/sys/vm/nr_hugepages（在 /etc/sysctl.d 中设置 vm.nr_hugepages 使其持久生效），或将 link.huge_pages 设为 false</translation>
        </message>
        <message>
            <source>every CPU at the "performance" governor</source>
            <translation>每个 CPU 均使用“performance”调频策略</translation>
        </message>
        <message>
            <source>no CPU frequency scaling visible (a virtual machine, or a fixed clock)</source>
            <translation>未见 CPU 调频（虚拟机或固定时钟）</translation>
        </message>
        <message>
            <source>%1 CPUs %2</source>
            <translation>%1 个 CPU 为 %2</translation>
        </message>
        <message>
            <source>a clock that steps down between frames adds latency: cpupower frequency-set -g performance (package linux-cpupower), or the BIOS's performance profile</source>
            <translation>帧间降频会增加延迟：执行 cpupower frequency-set -g performance（软件包 linux-cpupower），或使用 BIOS 的性能模式</translation>
        </message>
        <message>
            <source>&gt;= %1 MiB (warn under %2 MiB)</source>
            <translation>&gt;= %1 MiB（低于 %2 MiB 时警告）</translation>
        </message>
        <message>
            <source>cannot tell the free space of %1</source>
            <translation>无法获知 %1 的可用空间</translation>
        </message>
        <message>
            <source>check that the folder exists and is on a mounted disk</source>
            <translation>请检查该文件夹是否存在且位于已挂载的磁盘上</translation>
        </message>
        <message>
            <source>%1 MiB free in %2</source>
            <translation>%2 中可用 %1 MiB</translation>
        </message>
        <message>
            <source>free space there (send and delete finished recordings) or choose a folder on a larger disk</source>
            <translation>请在该处释放空间（发送并删除已完成的录制数据），或选择位于更大磁盘上的文件夹</translation>
        </message>
        <message>
            <source>%1 is writable</source>
            <translation>%1 可写</translation>
        </message>
        <message>
            <source>writable</source>
            <translation>可写</translation>
        </message>
        <message>
            <source>%1: cannot create the folder: %2</source>
            <translation>%1：无法创建该文件夹：%2</translation>
        </message>
        <message>
            <source>%1: cannot write a file there: %2</source>
            <translation>%1：无法在该处写入文件：%2</translation>
        </message>
        <message>
            <source>cannot create the folder: %1</source>
            <translation>无法创建该文件夹：%1</translation>
        </message>
        <message>
            <source>cannot write a file there: %1</source>
            <translation>无法在该处写入文件：%1</translation>
        </message>
        <message>
            <source>give the station user write access to the folder, or choose another in the configuration</source>
            <translation>请授予工作站用户对该文件夹的写权限，或在配置中另选一个文件夹</translation>
        </message>
        <message>
            <source>a GPU with ECC on (the live image beamformed there)</source>
            <translation>一块开启 ECC 的 GPU（实时图像在其上进行波束合成）</translation>
        </message>
        <message>
            <source>no usable GPU: %1</source>
            <translation>无可用 GPU：%1</translation>
        </message>
        <message>
            <source>this build has no CUDA module: the CPU beamformer images</source>
            <translation>此版本不含 CUDA 模块：由 CPU 波束合成器成像</translation>
        </message>
        <message>
            <source>check the NVIDIA driver (nvidia-smi) and the GPU's seating; the CPU beamformer images meanwhile, slower</source>
            <translation>请检查 NVIDIA 驱动（nvidia-smi）以及 GPU 是否插稳；在此期间由 CPU 波束合成器成像，速度较慢</translation>
        </message>
        <message>
            <source>build with the CUDA toolkit for live imaging on the GPU; the CPU beamformer images meanwhile, slower</source>
            <translation>请使用 CUDA 工具包构建，以便在 GPU 上实时成像；在此期间由 CPU 波束合成器成像，速度较慢</translation>
        </message>
        <message>
            <source>%1 (ECC on)</source>
            <translation>%1（ECC 开启）</translation>
        </message>
        <message>
            <source>%1 (ECC off)</source>
            <translation>%1（ECC 关闭）</translation>
        </message>
        <message>
            <source>%1 (ECC on), %2</source>
            <translation>%1（ECC 开启），%2</translation>
        </message>
        <message>
            <source>%1 (ECC off), %2</source>
            <translation>%1（ECC 关闭），%2</translation>
        </message>
        <message>
            <source>%1 device, driver %2: %3</source>
            <translation>%1 个设备，驱动 %2：%3</translation>
        </message>
        <message>
            <source>%1 devices, driver %2: %3</source>
            <translation>%1 个设备，驱动 %2：%3</translation>
        </message>
        <message>
            <source>turn ECC on (nvidia-smi -e 1, then a reboot): a memory error on the GPU would change the image unseen</source>
            <translation>请开启 ECC（nvidia-smi -e 1，然后重启）：GPU 上的内存错误会在不被察觉的情况下改变图像</translation>
        </message>
        <message>
            <source>the port serving %1 ACTIVE, MTU 4096, error counters at 0</source>
            <translation>%1 所用的端口处于 ACTIVE 状态，MTU 4096，错误计数器为 0</translation>
        </message>
        <message>
            <source>the link</source>
            <translation>链路</translation>
        </message>
        <message>
            <source>no RDMA port: %1</source>
            <translation>无 RDMA 端口：%1</translation>
        </message>
        <message>
            <source>%1 port %2 (%3)</source>
            <translation>%1 端口 %2（%3）</translation>
        </message>
        <message>
            <source>%1 port %2 (%3), %4</source>
            <translation>%1 端口 %2（%3），%4</translation>
        </message>
        <message>
            <source>no RDMA port has %1 among its addresses; ports: %2</source>
            <translation>没有任何 RDMA 端口拥有地址 %1；端口：%2</translation>
        </message>
        <message>
            <source>give the NIC's interface the address in link.address (ip addr), or set link.address to the NIC's; for Soft-RoCE, `rdma link add rxe0 type rxe netdev &lt;interface&gt;`</source>
            <translation>请为 NIC 的接口配置 link.address 中的地址（ip addr），或将 link.address 设为该 NIC 的地址；Soft-RoCE 则执行 `rdma link add rxe0 type rxe netdev &lt;interface&gt;`</translation>
        </message>
        <message>
            <source>%1 port %2: %3, %4, %5, MTU %6; %7</source>
            <translation>%1 端口 %2：%3，%4，%5，MTU %6；%7</translation>
        </message>
        <message>
            <source>rate not shown</source>
            <translation>速率未显示</translation>
        </message>
        <message>
            <source>error counters at 0</source>
            <translation>错误计数器为 0</translation>
        </message>
        <message>
            <source>error counters: %1</source>
            <translation>错误计数器：%1</translation>
        </message>
        <message>
            <source>the port is not up: check the cable or fibre, the transceiver and the switch port; `rdma link` shows its state</source>
            <translation>端口未启用：请检查电缆或光纤、光模块和交换机端口；`rdma link` 可显示其状态</translation>
        </message>
        <message>
            <source>set the interface's MTU to 9000 (RoCE: the RDMA MTU follows it up to 4096): smaller packets cost throughput</source>
            <translation>请将接口的 MTU 设为 9000（RoCE：RDMA MTU 随之提高，最大 4096）：较小的数据包会降低吞吐量</translation>
        </message>
        <message>
            <source>errors on the port since it came up: check the cable, the transceiver and the switch; the link BER test says whether payload bits suffered</source>
            <translation>端口启用以来出现错误：请检查电缆、光模块和交换机；链路误码率测试可判断有效载荷的比特是否受损</translation>
        </message>
        <message>
            <source>the link's NIC and the GPUs on one NUMA node</source>
            <translation>链路的 NIC 与 GPU 位于同一 NUMA 节点</translation>
        </message>
        <message>
            <source>%1 on node %2</source>
            <translation>%1 位于节点 %2</translation>
        </message>
        <message>
            <source>no NIC or GPU to place</source>
            <translation>没有需要定位的 NIC 或 GPU</translation>
        </message>
        <message>
            <source>not visible (%1): one node, or not shown</source>
            <translation>不可见（%1）：只有一个节点，或系统未显示</translation>
        </message>
        <message>
            <source>the NIC and the GPU sit on different NUMA nodes: every frame crosses the socket link; move the GPU or the NIC to slots of one node, and pin the rx thread there (link.rx_cpu)</source>
            <translation>NIC 与 GPU 位于不同的 NUMA 节点：每一帧都要跨越处理器插槽间的互连；请将 GPU 或 NIC 移到同一节点的插槽上，并将 rx 线程绑定到该节点（link.rx_cpu）</translation>
        </message>
        <message>
            <source>each PTP clock within %1 us of the system clock</source>
            <translation>每个 PTP 时钟与系统时钟的偏差在 %1 us 以内</translation>
        </message>
        <message>
            <source>no PTP clock: frame times come from the system clock</source>
            <translation>无 PTP 时钟：帧时间取自系统时钟</translation>
        </message>
        <message>
            <source>%1 (%2): offset not measured (%3)</source>
            <translation>%1（%2）：未测得偏差（%3）</translation>
        </message>
        <message>
            <source>%1 (%2): offset not measured (%3); %4</source>
            <translation>%1（%2）：未测得偏差（%3）；%4</translation>
        </message>
        <message>
            <source>install linuxptp (phc_ctl) and run as a user that may read the clock, so that its offset can be measured</source>
            <translation>请安装 linuxptp（phc_ctl），并以可读取该时钟的用户运行，以便测量其偏差</translation>
        </message>
        <message>
            <source>%1 (%2): %3 us from the system clock</source>
            <translation>%1（%2）：与系统时钟相差 %3 us</translation>
        </message>
        <message>
            <source>%1 (%2): %3 us from the system clock; %4</source>
            <translation>%1（%2）：与系统时钟相差 %3 us；%4</translation>
        </message>
        <message>
            <source>the PTP clock is not synchronised with the system clock: run phc2sys (linuxptp) so that frame times agree with the front end's</source>
            <translation>PTP 时钟未与系统时钟同步：请运行 phc2sys（linuxptp），使帧时间与前端一致</translation>
        </message>
        <message>
            <source>no CUDA driver is installed (libcuda.so.1 not found)</source>
            <translation>未安装 CUDA 驱动（找不到 libcuda.so.1）</translation>
        </message>
        <message>
            <source>no usable CUDA device (%1; driver %2, runtime %3)</source>
            <translation>无可用 CUDA 设备（%1；驱动 %2，运行时 %3）</translation>
        </message>
        <message>
            <source>device count is 0</source>
            <translation>设备数为 0</translation>
        </message>
        <message>
            <source>not built (nvcc was not found at configure time)</source>
            <translation>未构建（配置时未找到 nvcc）</translation>
        </message>
        <message>
            <source>no RDMA device (no NIC and no rdma_rxe; the simulated link still works)</source>
            <translation>无 RDMA 设备（没有 NIC，也没有 rdma_rxe；模拟链路仍可使用）</translation>
        </message>
        <message>
            <source>not built (libibverbs-dev/librdmacm-dev were not found at configure time)</source>
            <translation>未构建（配置时未找到 libibverbs-dev/librdmacm-dev）</translation>
        </message>
        <message>
            <source>linuxptp's phc_ctl is not installed</source>
            <translation>未安装 linuxptp 的 phc_ctl</translation>
        </message>
        <message>
            <source>phc_ctl: %1</source>
            <translation>phc_ctl 出错：%1</translation>
        </message>
        <message>
            <source>no mismatch (March C-: stuck-at, transition, coupling and address-decoder faults)</source>
            <translation>无不匹配（March C-：检测固定型、跳变、耦合和地址译码故障）</translation>
        </message>
        <message>
            <source>March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and written): %6 mismatches</source>
            <translation>对 DMA 环形缓冲区执行 March C-，%1 MiB（%2 个 %3 KiB 的槽位），用时 %4 s（读写 %5 GB/s）：%6 处不匹配</translation>
        </message>
        <message>
            <source>March C- over the DMA ring, %1 MiB (%2 slots of %3 KiB), in %4 s (%5 GB/s read and written): %6 mismatches; %7</source>
            <translation>对 DMA 环形缓冲区执行 March C-，%1 MiB（%2 个 %3 KiB 的槽位），用时 %4 s（读写 %5 GB/s）：%6 处不匹配；%7</translation>
        </message>
        <message>
            <source>the first at %1 (slot %2, byte %3): wrote %4, read %5</source>
            <translation>第一处位于 %1（槽位 %2，字节 %3）：写入 %4，读出 %5</translation>
        </message>
        <message>
            <source>the host memory under the DMA ring is faulty: do not scan; run a full memory test (memtest86+) and replace the module that fails</source>
            <translation>DMA 环形缓冲区所在的主机内存有故障：请勿扫描；请运行完整的内存测试（memtest86+）并更换出错的内存条</translation>
        </message>
        <message>
            <source>no mismatch (March C- by CUDA kernels: stuck-at, transition and address-decoder faults)</source>
            <translation>无不匹配（由 CUDA 内核执行 March C-：检测固定型、跳变和地址译码故障）</translation>
        </message>
        <message>
            <source>March C- over %1</source>
            <translation>March C- 测试：%1</translation>
        </message>
        <message>
            <source>%1: not tested: %2</source>
            <translation>%1：未测试：%2</translation>
        </message>
        <message>
            <source>%1: not tested: %2; %3</source>
            <translation>%1：未测试：%2；%3</translation>
        </message>
        <message>
            <source>%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches</source>
            <translation>%1：%2 MiB，用时 %3 s（读写 %4 GB/s），%5 处不匹配</translation>
        </message>
        <message>
            <source>%1: %2 MiB in %3 s (%4 GB/s read and written), %5 mismatches; %6</source>
            <translation>%1：%2 MiB，用时 %3 s（读写 %4 GB/s），%5 处不匹配；%6</translation>
        </message>
        <message>
            <source>the first at byte %1: wrote %2, read %3</source>
            <translation>第一处位于字节 %1：写入 %2，读出 %3</translation>
        </message>
        <message>
            <source>the first at byte %1: wrote %2, read %3; %4</source>
            <translation>第一处位于字节 %1：写入 %2，读出 %3；%4</translation>
        </message>
        <message>
            <source>the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics (nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced</source>
            <translation>GPU 显存有故障：请勿在此 GPU 上扫描；请运行厂商诊断（nvidia-smi -q -d ECC、dcgmi diag）并更换该显卡</translation>
        </message>
        <message>
            <source>the GPU's memory is faulty: do not scan on this GPU; run the vendor's diagnostics (nvidia-smi -q -d ECC, dcgmi diag) and have the card replaced; %1</source>
            <translation>GPU 显存有故障：请勿在此 GPU 上扫描；请运行厂商诊断（nvidia-smi -q -d ECC、dcgmi diag）并更换该显卡；%1</translation>
        </message>
        <message>
            <source>a GPU could not be tested: check the driver (nvidia-smi) and the GPU's free memory, then connect again</source>
            <translation>有 GPU 无法测试：请检查驱动（nvidia-smi）和 GPU 的空闲显存，然后重新连接</translation>
        </message>
        <message>
            <source>every slot written by the front end and checked in place; no slot whose errors repeat there</source>
            <translation>每个槽位均由前端写入并就地校验；没有错误反复出现的槽位</translation>
        </message>
        <message>
            <source>%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked in place: %6 blocks with errors; %7 slots whose errors repeat there%8</source>
            <translation>前端将 %1 写入 %3 个环形缓冲区槽位中的 %2 个（%4 个数据块，每槽位 %5 个）并就地校验：%6 个数据块有错误；%7 个槽位错误反复出现%8</translation>
        </message>
        <message>
            <source>%1 written by the front end into %2 of %3 ring slots (%4 blocks, %5 a slot) and checked in place: %6 blocks with errors; %7 slot whose errors repeat there%8</source>
            <translation>前端将 %1 写入 %3 个环形缓冲区槽位中的 %2 个（%4 个数据块，每槽位 %5 个）并就地校验：%6 个数据块有错误；%7 个槽位错误反复出现%8</translation>
        </message>
        <message>
            <source>: %1 (the rest of the ring: %2 of %3 blocks)</source>
            <translation>：%1（环形缓冲区其余部分：%3 个数据块中 %2 个有错误）</translation>
        </message>
        <message>
            <source>slot %1: %2 of %3 blocks with errors (%4 bit errors)</source>
            <translation>槽位 %1：%3 个数据块中 %2 个有错误（%4 个误码）</translation>
        </message>
        <message>
            <source>slot %1: %2 of %3 blocks with errors (%4 bit errors); %5</source>
            <translation>槽位 %1：%3 个数据块中 %2 个有错误（%4 个误码）；%5</translation>
        </message>
        <message>
            <source>the host memory under those slots, or the DMA path to them (the NIC, its PCIe slot, the IOMMU), damages what the front end writes: do not scan; run a full memory test, reseat the NIC, then connect again</source>
            <translation>这些槽位所在的主机内存，或通往它们的 DMA 通路（NIC、其 PCIe 插槽、IOMMU）损坏了前端写入的数据：请勿扫描；请运行完整的内存测试，重新插好 NIC，然后重新连接</translation>
        </message>
        <message>
            <source>the test's pattern did not reach every slot: a longer BER test (sonolink-cli selftest --full) covers the ring</source>
            <translation>测试码型未覆盖每个槽位：更长的误码率测试（sonolink-cli selftest --full）可覆盖整个环形缓冲区</translation>
        </message>
        <message>
            <source>every configured node answers a C-ECHO</source>
            <translation>每个已配置的节点均应答 C-ECHO</translation>
        </message>
        <message>
            <source>%1 answered in %2 ms</source>
            <translation>%1 在 %2 ms 内应答</translation>
        </message>
        <message>
            <source>%1 answered in %2 ms; %3</source>
            <translation>%1 在 %2 ms 内应答；%3</translation>
        </message>
        <message>
            <source>%1: nothing listening: %2</source>
            <translation>%1：无服务监听：%2</translation>
        </message>
        <message>
            <source>%1: rejected: %2</source>
            <translation>%1：被拒绝：%2</translation>
        </message>
        <message>
            <source>%1: timeout: %2</source>
            <translation>%1：超时：%2</translation>
        </message>
        <message>
            <source>%1: TLS: %2</source>
            <translation>%1：TLS 问题：%2</translation>
        </message>
        <message>
            <source>%1: other: %2</source>
            <translation>%1：其他问题：%2</translation>
        </message>
        <message>
            <source>C-ECHO to %1 nodes, %2 answered: %3</source>
            <translation>向 %1 个节点发送 C-ECHO，%2 个应答：%3</translation>
        </message>
        <message>
            <source>studies wait in the queue until the node answers. Nothing listening: the PACS is down or its address or port is wrong; rejected: our AE title (dicom.station_ae_title) is unknown to it; timeout: a firewall or a busy PACS; TLS: the certificates, or TLS set for a plain port</source>
            <translation>检查将在队列中等待，直到节点应答。无服务监听：PACS 未运行，或其地址或端口有误；被拒绝：对方不认识本机的 AE 名称（dicom.station_ae_title）；超时：防火墙拦截或 PACS 繁忙；TLS：证书问题，或对普通端口设置了 TLS</translation>
        </message>
        <message>
            <source>link BER test: PRBS-%1 until %2 bits show BER &lt;= %3 at %4 % confidence</source>
            <translation>链路误码率测试：PRBS-%1，直至 %2 比特在 %4% 置信度下表明 BER &lt;= %3</translation>
        </message>
        <message>
            <source>BER &lt;= %1 at %2 % confidence (%3 bits, PRBS-%4), no block lost</source>
            <translation>在 %2% 置信度下 BER &lt;= %1（%3 比特，PRBS-%4），无数据块丢失</translation>
        </message>
        <message>
            <source>%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 blocks lost: BER %7, under %8 at %9 % confidence</source>
            <translation>%2 s 内比对 %1 比特，%3 个误码，%4 次失锁，%5 个数据块有 CRC 错误，丢失 %6 个数据块：BER %7，在 %9% 置信度下低于 %8</translation>
        </message>
        <message>
            <source>%1 bits compared in %2 s, %3 bit errors, %4 losses of lock, %5 blocks with CRC errors, %6 blocks lost: BER %7, under %8 at %9 % confidence (stopped: out of time)</source>
            <translation>%2 s 内比对 %1 比特，%3 个误码，%4 次失锁，%5 个数据块有 CRC 错误，丢失 %6 个数据块：BER %7，在 %9% 置信度下低于 %8（已停止：超时）</translation>
        </message>
        <message>
            <source>the link lost %1 blocks (%2 never arrived, %3 refused, %4 late): check the NIC's port counters for drops and pause frames (sonolink-cli link diag), the switch between, then connect again</source>
            <translation>链路丢失了 %1 个数据块（%2 个未到达，%3 个被拒收，%4 个迟到）：请检查 NIC 端口计数器中的丢包和暂停帧（sonolink-cli link diag）以及中间的交换机，然后重新连接</translation>
        </message>
        <message>
            <source>bit errors on the data path: check the cable or fibre and its connectors, the transceivers and the NIC's port counters (sonolink-cli link diag), then connect again</source>
            <translation>数据通路上有误码：请检查电缆或光纤及其连接器、光模块以及 NIC 端口计数器（sonolink-cli link diag），然后重新连接</translation>
        </message>
        <message>
            <source>too few bits compared to show the limit: the link is slower than planned, or the test's time (selftest.ber_timeout_s) too short</source>
            <translation>比对的比特数太少，不足以证明该限值：链路比预期慢，或测试时间（selftest.ber_timeout_s）太短</translation>
        </message>
        <message>
            <source>the start-up %1 test failed: %2</source>
            <translation>启动时的 %1 测试未通过：%2</translation>
        </message>
        <message>
            <source>%1; the start-up %2 test failed: %3</source>
            <translation>%1；启动时的 %2 测试未通过：%3</translation>
        </message>
        <message>
            <source>cancelled by %1 while it ran; the steps after it did not run</source>
            <translation>运行中被 %1 取消；其后的步骤未运行</translation>
        </message>
        <message>
            <source>the self-test runs to its end</source>
            <translation>自检运行至结束</translation>
        </message>
        <message>
            <source>connect again to run the self-test (or override it, with a reason)</source>
            <translation>请重新连接以运行自检（或说明理由后越权放行）</translation>
        </message>
        <message>
            <source>no self-test runs</source>
            <translation>没有正在运行的自检</translation>
        </message>
        <message>
            <source>this station has no self-test configured</source>
            <translation>本工作站未配置自检</translation>
        </message>
        <message>
            <source>cannot run the self-test while %1: stop streaming first</source>
            <translation>%1 时无法运行自检：请先停止采集</translation>
        </message>
        <message>
            <source>no self-test step is named '%1'</source>
            <translation>没有名为“%1”的自检步骤</translation>
        </message>
        <message>
            <source>no failed self-test blocks streaming</source>
            <translation>没有阻止采集的未通过自检</translation>
        </message>
        <message>
            <source>an override needs a reason (it is recorded with who gave it)</source>
            <translation>越权放行需要理由（理由将与操作人一并记录）</translation>
        </message>
        <message>
            <source>starting the link BER test</source>
            <translation>启动链路误码率测试</translation>
        </message>
        <message>
            <source>running the link BER test</source>
            <translation>运行链路误码率测试</translation>
        </message>
        <message>
            <source>the station's set-up</source>
            <translation>工作站设置</translation>
        </message>
        <message>
            <source>March C- over the GPU's memory</source>
            <translation>对 GPU 显存执行 March C-</translation>
        </message>
        <message>
            <source>March C- over the DMA ring</source>
            <translation>对 DMA 环形缓冲区执行 March C-</translation>
        </message>
        <message>
            <source>C-ECHO to %1 nodes</source>
            <translation>向 %1 个节点发送 C-ECHO</translation>
        </message>
        <message>
            <source> (this link's ring is not locked memory; a verbs link's would fail)</source>
            <translation>（此链路的环形缓冲区不是锁定内存；verbs 链路则会失败）</translation>
        </message>
        <message>
            <source>%1 of %2 bits compared</source>
            <translation>已比对 %1 / %2 比特</translation>
        </message>
        <message>
            <source>channel %1 dead (RMS %2 counts, %3 % of the median)</source>
            <translation>通道 %1 失效（RMS %2 计数，为中位数的 %3%）</translation>
        </message>
        <message>
            <source>channel %1 dead (RMS %2 counts, %3 % of the median); %4</source>
            <translation>通道 %1 失效（RMS %2 计数，为中位数的 %3%）；%4</translation>
        </message>
        <message>
            <source>channel %1 weak (RMS %2 counts, %3 % of the median)</source>
            <translation>通道 %1 信号弱（RMS %2 计数，为中位数的 %3%）</translation>
        </message>
        <message>
            <source>channel %1 weak (RMS %2 counts, %3 % of the median); %4</source>
            <translation>通道 %1 信号弱（RMS %2 计数，为中位数的 %3%）；%4</translation>
        </message>
        <message>
            <source>channel %1 noisy (SNR %2 dB, %3 dB under the median)</source>
            <translation>通道 %1 噪声大（SNR %2 dB，比中位数低 %3 dB）</translation>
        </message>
        <message>
            <source>channel %1 noisy (SNR %2 dB, %3 dB under the median); %4</source>
            <translation>通道 %1 噪声大（SNR %2 dB，比中位数低 %3 dB）；%4</translation>
        </message>
        <message>
            <source>channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, each fits the other's place)</source>
            <translation>通道 %1 与 %2 接反（其包络与相邻通道的相关系数分别为 %3 和 %4，各自符合对方的位置）</translation>
        </message>
        <message>
            <source>channels %1 and %2 swapped (their envelopes correlate %3 and %4 with their neighbours, each fits the other's place); %5</source>
            <translation>通道 %1 与 %2 接反（其包络与相邻通道的相关系数分别为 %3 和 %4，各自符合对方的位置）；%5</translation>
        </message>
        <message>
            <source>channel %1 uncorrelated with its neighbours (%2)</source>
            <translation>通道 %1 与相邻通道不相关（%2）</translation>
        </message>
        <message>
            <source>channel %1 uncorrelated with its neighbours (%2); %3</source>
            <translation>通道 %1 与相邻通道不相关（%2）；%3</translation>
        </message>
        <message>
            <source>no channel dead (RMS under %1 % of the median), weak (under %2 %), noisy (SNR %3 dB under the median) or swapped (envelope correlation with its neighbours under %4 x the median)</source>
            <translation>没有通道失效（RMS 低于中位数的 %1%）、信号弱（低于 %2%）、噪声大（SNR 比中位数低 %3 dB）或接反（与相邻通道的包络相关系数低于中位数的 %4 倍）</translation>
        </message>
        <message>
            <source>the phantom's frames do not fit the configured geometry: %1</source>
            <translation>体模的帧与配置的几何参数不符：%1</translation>
        </message>
        <message>
            <source>the front end sends another geometry than the one configured: check its firmware and the acquisition settings</source>
            <translation>前端发送的几何参数与配置不同：请检查其固件和采集设置</translation>
        </message>
        <message>
            <source>%1 of %2 frames of the phantom arrived in %3 s</source>
            <translation>%3 s 内收到体模的 %2 帧中的 %1 帧</translation>
        </message>
        <message>
            <source>%1 of %2 frames of the phantom arrived before the session ended</source>
            <translation>会话结束前收到体模的 %2 帧中的 %1 帧</translation>
        </message>
        <message>
            <source>the front end did not send its phantom's frames: check the link (sonolink-cli link diag), then connect again</source>
            <translation>前端未发送其体模的帧：请检查链路（sonolink-cli link diag），然后重新连接</translation>
        </message>
        <message>
            <source>%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation with the neighbours %5; %6 flagged</source>
            <translation>体模 %1 帧，%2 个通道：RMS 中位数 %3 计数，SNR %4，与相邻通道的包络相关系数 %5；%6 个被标记</translation>
        </message>
        <message>
            <source>%1 frames of the phantom, %2 channels: median RMS %3 counts, SNR %4, envelope correlation with the neighbours %5; %6 flagged: %7</source>
            <translation>体模 %1 帧，%2 个通道：RMS 中位数 %3 计数，SNR %4，与相邻通道的包络相关系数 %5；%6 个被标记：%7</translation>
        </message>
        <message>
            <source>not measured (identical frames)</source>
            <translation>未测量（各帧相同）</translation>
        </message>
        <message>
            <source>dead or weak: the element, its cable or its receive channel (swap the probe to tell which); noisy: the channel's preamplifier or a ground fault; swapped: the probe's connector or cable wiring. Do not scan with this probe</source>
            <translation>失效或信号弱：阵元、其电缆或其接收通道有问题（更换探头可判断是哪一项）；噪声大：该通道的前置放大器或接地故障；接反：探头连接器或电缆接线有误。请勿使用此探头扫描</translation>
        </message>
        <message>
            <source>NCC of the log envelopes (60 dB) &gt;= %1; each point target within %2 mm of the reference's peak, its lateral and axial FWHM within %3 % of the reference's</source>
            <translation>对数包络（60 dB）的 NCC &gt;= %1；每个点目标与参考图像峰值的距离在 %2 mm 以内，其横向和轴向 FWHM 与参考图像相差在 %3% 以内</translation>
        </message>
        <message>
            <source>the image of the known phantom is not what it must be: check the probe's connector (the element order), the probe definition and sound speed in the configuration, and the front end's timing; then connect again</source>
            <translation>已知体模的图像与应有结果不符：请检查探头连接器（阵元顺序）、配置中的探头定义和声速，以及前端的时序；然后重新连接</translation>
        </message>
        <message>
            <source>no reference image of the phantom: %1</source>
            <translation>没有体模的参考图像：%1</translation>
        </message>
        <message>
            <source>no frame of the phantom arrived</source>
            <translation>未收到体模的任何帧</translation>
        </message>
        <message>
            <source>the %1 imager could not beamform the phantom: %2</source>
            <translation>%1 成像器无法对体模进行波束合成：%2</translation>
        </message>
        <message>
            <source>%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8)</source>
            <translation>%1(%2, %3) mm：偏离 %4 mm，FWHM %5 x %6 mm（参考 %7 x %8）</translation>
        </message>
        <message>
            <source>%1(%2, %3) mm: %4 mm off, FWHM %5 x %6 mm (reference %7 x %8); %9</source>
            <translation>%1(%2, %3) mm：偏离 %4 mm，FWHM %5 x %6 mm（参考 %7 x %8）；%9</translation>
        </message>
        <message>
            <source>FAILED </source>
            <translation>未通过 </translation>
        </message>
        <message>
            <source>the phantom beamformed on the %1 imager (%2 x %3 grid): NCC %4 with the reference; %5 point targets, the farthest %6 mm from its place: %7</source>
            <translation>体模在 %1 成像器上完成波束合成（%2 x %3 网格）：与参考图像的 NCC 为 %4；%5 个点目标，最远偏离其位置 %6 mm：%7</translation>
        </message>
        <message>
            <source>%1 frames of the phantom</source>
            <translation>体模 %1 帧</translation>
        </message>
        <message>
            <source>starting the element check</source>
            <translation>启动阵元检查</translation>
        </message>
        <message>
            <source>element check of %1 frames x %2 waves x %3 channels x %4 samples: at least one frame of three channels is needed</source>
            <translation>阵元检查的数据为 %1 帧 x %2 次发射 x %3 通道 x %4 采样点：至少需要一帧、三个通道</translation>
        </message>
        <message>
            <source>element check: %1 samples for %2 frames x %3 waves x %4 channels x %5</source>
            <translation>阵元检查：%2 帧 x %3 次发射 x %4 通道 x %5 却有 %1 个采样点</translation>
        </message>
        <message>
            <source>phantom check: an image does not match its grid (live %1 x %2, reference %3 x %4)</source>
            <translation>体模检查：有图像与其网格不符（实时图像 %1 x %2，参考图像 %3 x %4）</translation>
        </message>
        <message>
            <source>phantom check: the live image and the reference are on different grids</source>
            <translation>体模检查：实时图像与参考图像的网格不同</translation>
        </message>
        <message>
            <source>bringing the link up</source>
            <translation>正在建立链路</translation>
        </message>
        <message>
            <source>start-up self-tests: none configured</source>
            <translation>启动自检：未配置</translation>
        </message>
        <message>
            <source>link up, front end configured</source>
            <translation>链路已建立，前端已配置</translation>
        </message>
        <message>
            <source>link up, front end configured; streaming blocked: %1</source>
            <translation>链路已建立，前端已配置；采集被阻止：%1</translation>
        </message>
        <message>
            <source>the front end finished its session (%1 frames)</source>
            <translation>前端已结束其会话（%1 帧）</translation>
        </message>
        <message>
            <source>the front end reports: %1</source>
            <translation>前端报告：%1</translation>
        </message>
        <message>
            <source>cannot stream while %1</source>
            <translation>%1 时无法采集</translation>
        </message>
        <message>
            <source>%1; an engineer may override it, with a reason (overrideSelfTest)</source>
            <translation>%1；工程师可说明理由后越权放行（overrideSelfTest）</translation>
        </message>
        <message>
            <source>live again</source>
            <translation>恢复实时</translation>
        </message>
        <message>
            <source>image and cine held for review</source>
            <translation>图像和电影回放已冻结以供回顾</translation>
        </message>
        <message>
            <source>disconnected</source>
            <translation>已断开</translation>
        </message>
        <message>
            <source>no PACS queue is configured</source>
            <translation>未配置 PACS 队列</translation>
        </message>
        <message>
            <source>no archive is configured</source>
            <translation>未配置归档</translation>
        </message>
        <message>
            <source>queuing %1 for the archive</source>
            <translation>将 %1 加入归档队列</translation>
        </message>
        <message>
            <source>%1 thread: %2</source>
            <translation>%1 线程：%2</translation>
        </message>
        <message>
            <source>the engine needs a link backend</source>
            <translation>引擎需要链路后端</translation>
        </message>
        <message>
            <source>the imaging settings are out of range</source>
            <translation>成像设置超出范围</translation>
        </message>
        <message>
            <source>checking the acquisition geometry</source>
            <translation>检查采集几何参数</translation>
        </message>
        <message>
            <source>starting the archive queue</source>
            <translation>启动归档队列</translation>
        </message>
        <message>
            <source>closed before streaming</source>
            <translation>采集开始前已关闭</translation>
        </message>
        <message>
            <source>not streamed</source>
            <translation>未采集</translation>
        </message>
        <message>
            <source>acquisition thread: %1</source>
            <translation>采集线程：%1</translation>
        </message>
        <message>
            <source>an exception that is not a std::exception</source>
            <translation>一个非 std::exception 的异常</translation>
        </message>
        <message>
            <source>a std::exception without a message</source>
            <translation>一个没有消息的 std::exception</translation>
        </message>
        <message>
            <source>the imager gave %1 x %2 pixels for a %3 x %4 grid</source>
            <translation>成像器为 %3 x %4 的网格给出了 %1 x %2 个像素</translation>
        </message>
        <message>
            <source>frame %1 not imaged: %2 (later failures are counted, not reported)</source>
            <translation>第 %1 帧未成像：%2（之后的失败只计数，不再报告）</translation>
        </message>
        <message>
            <source>the display stopped: %1</source>
            <translation>显示已停止：%1</translation>
        </message>
        <message>
            <source>beamforming the phantom: %1</source>
            <translation>体模波束合成：%1</translation>
        </message>
        <message>
            <source>frame %1: block %2 does not fit the configured geometry</source>
            <translation>第 %1 帧：数据块 %2 与配置的几何参数不符</translation>
        </message>
        <message>
            <source>the patient's name %1</source>
            <translation>患者姓名%1</translation>
        </message>
        <message>
            <source>the referring physician's name %1</source>
            <translation>转诊医师姓名%1</translation>
        </message>
        <message>
            <source>'%1' must be at most 64 characters (got %2)</source>
            <translation>“%1”最多 64 个字符（实际 %2 个）</translation>
        </message>
        <message>
            <source>'%1' may not hold a backslash or a control character</source>
            <translation>“%1”不得包含反斜杠或控制字符</translation>
        </message>
        <message>
            <source>the Study Instance UID %1</source>
            <translation>检查实例 UID（Study Instance UID）%1</translation>
        </message>
        <message>
            <source>the body part '%1' is not a DICOM code string (up to 16 capitals, digits, '_' and spaces)</source>
            <translation>检查部位“%1”不是 DICOM 代码字符串（最多 16 个大写字母、数字、“_”和空格）</translation>
        </message>
        <message>
            <source>live again: a new exam</source>
            <translation>恢复实时：新的检查</translation>
        </message>
        <message>
            <source>cancelled before it started</source>
            <translation>开始前已取消</translation>
        </message>
        <message>
            <source>collecting the cine</source>
            <translation>正在收集电影回放</translation>
        </message>
        <message>
            <source>the cine is empty: stream first</source>
            <translation>电影回放为空：请先采集</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <source>writing %1 frames</source>
            <translation>正在写入 %1 帧</translation>
        </message>
        <message>
            <source>writing %1 frames (the %2 before the last change of depth or view are left out)</source>
            <translation>正在写入 %1 帧（最近一次改变深度或视图之前的 %2 帧不包括在内）</translation>
        </message>
        <message>
            <source>frame %1 of session %2 is no longer held (the cine keeps the last %3): freeze and export again</source>
            <translation>会话 %2 的第 %1 帧已不再保留（电影回放只保留最近 %3 帧）：请冻结后重新导出</translation>
        </message>
        <message>
            <source>the burnt-in picture has %1 bytes; the frame's %2 x %3 pixels need %4 (R, G, B each)</source>
            <translation>烧录后的图片有 %1 字节；该帧的 %2 x %3 像素需要 %4 字节（R、G、B 各一）</translation>
        </message>
        <message>
            <source>writing the image with its measurements burnt in</source>
            <translation>正在写入烧录了测量结果的图像</translation>
        </message>
        <message>
            <source>writing the image</source>
            <translation>正在写入图像</translation>
        </message>
        <message>
            <source>writing the measurement report (%1 measurements)</source>
            <translation>正在写入测量报告（%1 项测量）</translation>
        </message>
        <message>
            <source>the image is written, its measurement report is not: %1</source>
            <translation>图像已写入，但其测量报告未写入：%1</translation>
        </message>
        <message>
            <source>queued for %1 as item %2</source>
            <translation>已加入 %1 的队列，条目 %2</translation>
        </message>
        <message>
            <source>queued for %1 as items %2</source>
            <translation>已加入 %1 的队列，条目 %2</translation>
        </message>
        <message>
            <source>item %1 is no longer in the queue</source>
            <translation>条目 %1 已不在队列中</translation>
        </message>
        <message>
            <source>cancelled; item %1 withdrawn from the queue</source>
            <translation>已取消；条目 %1 已从队列中撤回</translation>
        </message>
        <message>
            <source>cancelled; items %1 withdrawn from the queue</source>
            <translation>已取消；条目 %1 已从队列中撤回</translation>
        </message>
        <message>
            <source>too late to cancel: already at %1</source>
            <translation>来不及取消：已送达 %1</translation>
        </message>
        <message>
            <source>must be 1 to 16 characters (got %1)</source>
            <translation>必须为 1 到 16 个字符（实际 %1 个）</translation>
        </message>
        <message>
            <source>may hold only printable ASCII without backslash</source>
            <translation>只能包含除反斜杠以外的可打印 ASCII 字符</translation>
        </message>
        <message>
            <source>must not be all spaces</source>
            <translation>不得全为空格</translation>
        </message>
        <message>
            <source>a UID has 1 to 64 characters (got %1)</source>
            <translation>UID 应有 1 到 64 个字符（实际 %1 个）</translation>
        </message>
        <message>
            <source>must be dot-separated numbers with no empty component</source>
            <translation>必须是以点分隔的数字，且不得有空的部分</translation>
        </message>
        <message>
            <source>component '%1' is not a number (only digits and dots)</source>
            <translation>部分“%1”不是数字（只能有数字和点）</translation>
        </message>
        <message>
            <source>component '%1' has a leading zero</source>
            <translation>部分“%1”有前导零</translation>
        </message>
        <message>
            <source>must be at most 64 characters (got %1)</source>
            <translation>最多 64 个字符（实际 %1 个）</translation>
        </message>
        <message>
            <source>may not hold a backslash or a control character</source>
            <translation>不得包含反斜杠或控制字符</translation>
        </message>
        <message>
            <source>must be at most 16 characters (got %1)</source>
            <translation>最多 16 个字符（实际 %1 个）</translation>
        </message>
        <message>
            <source>has more than three component groups (alphabetic=ideographic=phonetic)</source>
            <translation>超过三个组件组（字母=表意=语音）</translation>
        </message>
        <message>
            <source>component group %1 has %2 characters; at most 64</source>
            <translation>组件组 %1 有 %2 个字符；最多 64 个</translation>
        </message>
        <message>
            <source>component group %1 has more than five components</source>
            <translation>组件组 %1 超过五个组件</translation>
        </message>
        <message>
            <source>already recording</source>
            <translation>已在录制</translation>
        </message>
        <message>
            <source>recording to %1</source>
            <translation>录制到 %1</translation>
        </message>
        <message>
            <source>the recorder fell behind: %1 frames were waiting for the disk; recording stopped before frame %2 (nothing after it is recorded)</source>
            <translation>录制跟不上：%1 帧在等待写入磁盘；录制在第 %2 帧之前停止（其后的内容均未录制）</translation>
        </message>
        <message>
            <source>recording: %1</source>
            <translation>录制：%1</translation>
        </message>
        <message>
            <source>cannot create %1: %2</source>
            <translation>无法创建 %1：%2</translation>
        </message>
        <message>
            <source>no room to record beside %1: the disk is full</source>
            <translation>%1 旁没有录制空间：磁盘已满</translation>
        </message>
        <message>
            <source>%1: cannot create group %2</source>
            <translation>%1：无法创建组 %2</translation>
        </message>
        <message>
            <source>%1: cannot create the data set</source>
            <translation>%1：无法创建数据集</translation>
        </message>
        <message>
            <source>%1: cannot create /acquisition</source>
            <translation>%1：无法创建 /acquisition</translation>
        </message>
        <message>
            <source>%1: cannot write the new recording: %2</source>
            <translation>%1：无法写入新的录制文件：%2</translation>
        </message>
        <message>
            <source>starting the recording %1</source>
            <translation>开始录制 %1</translation>
        </message>
        <message>
            <source>%1 exists already: record to a new file (nothing was overwritten)</source>
            <translation>%1 已存在：请录制到新文件（未覆盖任何内容）</translation>
        </message>
        <message>
            <source>cannot create recording %1 (directory missing, no permission, or it exists?)</source>
            <translation>无法创建录制文件 %1（目录不存在、无权限，或文件已存在？）</translation>
        </message>
        <message>
            <source>%1: the disk is full: %2 MB left, a frame needs %3 MB; the recording ends with its %4 frames</source>
            <translation>%1：磁盘已满：剩余 %2 MB，每帧需要 %3 MB；录制以已有的 %4 帧结束</translation>
        </message>
        <message>
            <source>%1: cannot grow the data set (disk full?)</source>
            <translation>%1：无法扩展数据集（磁盘已满？）</translation>
        </message>
        <message>
            <source>%1: no frame to end</source>
            <translation>%1：没有可结束的帧</translation>
        </message>
        <message>
            <source>%1: writing to the disk failed after frame %2: %3</source>
            <translation>%1：第 %2 帧之后写入磁盘失败：%3</translation>
        </message>
        <message>
            <source>the disk is full</source>
            <translation>磁盘已满</translation>
        </message>
        <message>
            <source>%1: writing frame %2 failed: %3</source>
            <translation>%1：写入第 %2 帧失败：%3</translation>
        </message>
        <message>
            <source>(disk full?)</source>
            <translation>（磁盘已满？）</translation>
        </message>
        <message>
            <source>%1: cannot drop the partial frame</source>
            <translation>%1：无法丢弃不完整的帧</translation>
        </message>
        <message>
            <source>%1: writing to the disk failed at close: %2</source>
            <translation>%1：关闭时写入磁盘失败：%2</translation>
        </message>
        <message>
            <source>cannot write %1: the disk is full (the object needs %2 bytes; nothing was written under its name)</source>
            <translation>无法写入 %1：磁盘已满（该对象需要 %2 字节；未以该名称写入任何内容）</translation>
        </message>
        <message>
            <source>cannot write %1: %2 (nothing was written under its name)</source>
            <translation>无法写入 %1：%2（未以该名称写入任何内容）</translation>
        </message>
        <message>
            <source>no node '%1' is configured (dicom.nodes: %2)</source>
            <translation>未配置节点“%1”（dicom.nodes：%2）</translation>
        </message>
        <message>
            <source>no node '%1' is configured (dicom.nodes: none)</source>
            <translation>未配置节点“%1”（dicom.nodes：无）</translation>
        </message>
        <message>
            <source>its AE title '%1' %2</source>
            <translation>其 AE 名称“%1”%2</translation>
        </message>
        <message>
            <source>the station's AE title '%1' %2</source>
            <translation>本机 AE 名称“%1”%2</translation>
        </message>
        <message>
            <source>it has no host</source>
            <translation>未设置主机</translation>
        </message>
        <message>
            <source>its port %1 is not 1 to 65535</source>
            <translation>其端口 %1 不在 1 到 65535 之间</translation>
        </message>
        <message>
            <source>node '%1' cannot be asked: %2</source>
            <translation>无法询问节点“%1”：%2</translation>
        </message>
        <message>
            <source>C-ECHO to %1 at %2</source>
            <translation>向 %2 上的 %1 发送 C-ECHO</translation>
        </message>
        <message>
            <source>C-ECHO to %1 at %2: ok</source>
            <translation>向 %2 上的 %1 发送 C-ECHO：成功</translation>
        </message>
        <message>
            <source>asking %1 (%2:%3)</source>
            <translation>正在询问 %1（%2:%3）</translation>
        </message>
        <message>
            <source>querying the worklist</source>
            <translation>查询工作列表</translation>
        </message>
        <message>
            <source>%1 scheduled exam</source>
            <translation>%1 项预约检查</translation>
        </message>
        <message>
            <source>%1 scheduled exams</source>
            <translation>%1 项预约检查</translation>
        </message>
        <message>
            <source>PACS %1 at %2: cannot associate: %3</source>
            <translation>%2 上的 PACS %1：无法建立关联：%3</translation>
        </message>
        <message>
            <source>PACS %1 at %2: cannot associate: %3 (if this port is TLS-only, set tls for this node)</source>
            <translation>%2 上的 PACS %1：无法建立关联：%3（如果该端口仅支持 TLS，请为此节点设置 tls）</translation>
        </message>
        <message>
            <source>PACS %1 at %2: cannot associate: %3 (check the certificates: ours, the CA we trust for the peer, and that the peer's certificate names %4 in its subjectAltName)</source>
            <translation>%2 上的 PACS %1：无法建立关联：%3（请检查证书：本机证书、用于信任对方的 CA，以及对方证书的 subjectAltName 中是否包含 %4）</translation>
        </message>
        <message>
            <source>PACS %1 at %2: TLS needs our %3 file, and none is configured</source>
            <translation>%2 上的 PACS %1：TLS 需要本机的 %3 文件，但未配置</translation>
        </message>
        <message>
            <source>PACS %1 at %2: TLS %3 file %4 does not exist</source>
            <translation>%2 上的 PACS %1：TLS %3 文件 %4 不存在</translation>
        </message>
        <message>
            <source>PACS %1 at %2: TLS set-up, %3: %4</source>
            <translation>%2 上的 PACS %1：TLS 设置，%3：%4</translation>
        </message>
        <message>
            <source>PACS %1 at %2: private key %3 does not match certificate %4</source>
            <translation>%2 上的 PACS %1：私钥 %3 与证书 %4 不匹配</translation>
        </message>
        <message>
            <source>PACS %1 at %2: TLS set-up: cannot check the peer's name against '%3'</source>
            <translation>%2 上的 PACS %1：TLS 设置：无法按“%3”核对对方的名称</translation>
        </message>
        <message>
            <source>PACS %1 at %2: not associating: stopped on request</source>
            <translation>%2 上的 PACS %1：未建立关联：已按请求停止</translation>
        </message>
        <message>
            <source>cannot start the network: %1</source>
            <translation>无法启动网络：%1</translation>
        </message>
        <message>
            <source>PACS %1 at %2: cannot attach the transport: %3</source>
            <translation>%2 上的 PACS %1：无法挂接传输层：%3</translation>
        </message>
        <message>
            <source>PACS %1 at %2: %3: stopped on request</source>
            <translation>%2 上的 PACS %1：%3：已按请求停止</translation>
        </message>
        <message>
            <source>PACS %1 at %2: %3: no complete answer in time (the deadline of this step passed; the peer is slow or stalled): %4</source>
            <translation>%2 上的 PACS %1：%3：未及时收到完整应答（此步骤的期限已过；对方响应缓慢或已停滞）：%4</translation>
        </message>
        <message>
            <source>PACS %1 at %2: %3 failed: %4</source>
            <translation>%2 上的 PACS %1：%3 失败：%4</translation>
        </message>
        <message>
            <source>the front end did not acknowledge Configure in time</source>
            <translation>前端未及时确认 Configure</translation>
        </message>
        <message>
            <source>configuring the front end</source>
            <translation>配置前端</translation>
        </message>
        <message>
            <source>the front end refused the configuration: %1</source>
            <translation>前端拒绝了该配置：%1</translation>
        </message>
        <message>
            <source>streaming</source>
            <translation>采集</translation>
        </message>
        <message>
            <source>the front end %1; the link must be reset</source>
            <translation>前端%1；必须重置链路</translation>
        </message>
        <message>
            <source>a ring of %1 slots cannot hold two frames of %2 blocks: use more or larger slots</source>
            <translation>%1 个槽位的环形缓冲区容纳不下两帧 %2 个数据块的数据：请使用更多或更大的槽位</translation>
        </message>
        <message>
            <source>the front end detached from the link</source>
            <translation>前端已从链路断开</translation>
        </message>
        <message>
            <source>the front end process (pid %1) is gone</source>
            <translation>前端进程（pid %1）已退出</translation>
        </message>
        <message>
            <source>the front end (pid %1) sent no heartbeat for %2 s</source>
            <translation>前端（pid %1）已 %2 s 未发送心跳</translation>
        </message>
        <message>
            <source>stopped while waiting for the front end</source>
            <translation>等待前端时已停止</translation>
        </message>
        <message>
            <source>no front end attached to the in-process link</source>
            <translation>没有前端连接到进程内链路</translation>
        </message>
        <message>
            <source>no front end attached to /dev/shm/%1 within %2 ms (start sonolink-fe-sim --link-name %3)</source>
            <translation>%2 ms 内没有前端连接到 /dev/shm/%1（请启动 sonolink-fe-sim --link-name %3）</translation>
        </message>
        <message>
            <source>control channel to the front end is full: %1 not sent (front end not reading)</source>
            <translation>通往前端的控制通道已满：%1 未发送（前端未读取）</translation>
        </message>
        <message>
            <source>credit lane full: the front end is not reading credits</source>
            <translation>信用通道已满：前端未读取信用</translation>
        </message>
        <message>
            <source>the link /dev/shm/%1 is in use by another host (PID %2): stop it, or give this one another link name</source>
            <translation>链路 /dev/shm/%1 正被另一主机（PID %2）使用：请停止该主机，或为本主机另取一个链路名称</translation>
        </message>
        <message>
            <source>cannot create shared memory /dev/shm/%1: %2</source>
            <translation>无法创建共享内存 /dev/shm/%1：%2</translation>
        </message>
        <message>
            <source>the link needs %1 MiB of shared memory (/dev/shm/%2: %3 slots of %4 KiB and its queues) and /dev/shm has %5 MiB free (%6): make the ring smaller (link.slot_count, link.slot_size_bytes) or /dev/shm larger (Docker: --shm-size)</source>
            <translation>链路需要 %1 MiB 共享内存（/dev/shm/%2：%3 个 %4 KiB 的槽位及其队列），而 /dev/shm 只有 %5 MiB 可用（%6）：请缩小环形缓冲区（link.slot_count、link.slot_size_bytes）或增大 /dev/shm（Docker：--shm-size）</translation>
        </message>
        <message>
            <source>the group '%1' is missing: `sudo apt install --reinstall sonolink` creates it, then `sudo adduser $USER %2` and log in again</source>
            <translation>缺少组“%1”：`sudo apt install --reinstall sonolink` 会创建该组，然后执行 `sudo adduser $USER %2` 并重新登录</translation>
        </message>
        <message>
            <source>`sudo adduser $USER %1`, then log out and in again (the package's udev rule gives the group /dev/infiniband; `sudo udevadm trigger --subsystem-match=infiniband_verbs` applies it without a reboot)</source>
            <translation>执行 `sudo adduser $USER %1`，然后注销并重新登录（软件包的 udev 规则将 /dev/infiniband 授予该组；`sudo udevadm trigger --subsystem-match=infiniband_verbs` 可在不重启的情况下使其生效）</translation>
        </message>
        <message>
            <source>the device nodes are not the group's yet: `sudo udevadm trigger --subsystem-match=infiniband_verbs`, or reboot</source>
            <translation>设备节点尚未归属该组：执行 `sudo udevadm trigger --subsystem-match=infiniband_verbs`，或重启</translation>
        </message>
        <message>
            <source>an RDMA device whose /dev/infiniband nodes this user can open</source>
            <translation>一个 RDMA 设备，且当前用户可以打开其 /dev/infiniband 节点</translation>
        </message>
        <message>
            <source>none needed (the link is simulated)</source>
            <translation>无需（链路为模拟链路）</translation>
        </message>
        <message>
            <source>no RDMA device</source>
            <translation>无 RDMA 设备</translation>
        </message>
        <message>
            <source>RDMA devices: %1; cannot open %2; group '%3': %4</source>
            <translation>RDMA 设备：%1；无法打开 %2；组“%3”：%4</translation>
        </message>
        <message>
            <source>RDMA devices: %1; %2 device nodes open; group '%3': %4</source>
            <translation>RDMA 设备：%1；%2 个设备节点可打开；组“%3”：%4</translation>
        </message>
        <message>
            <source>missing</source>
            <translation>不存在</translation>
        </message>
        <message>
            <source>a member</source>
            <translation>是成员</translation>
        </message>
        <message>
            <source>not a member</source>
            <translation>不是成员</translation>
        </message>
        <message>
            <source>this build has no RDMA (rdma-core was not found)</source>
            <translation>此版本不含 RDMA（未找到 rdma-core）</translation>
        </message>
        <message>
            <source>the configuration asks for a verbs link: use a build with rdma-core (libibverbs-dev, librdmacm-dev), or link.backend "sim"</source>
            <translation>配置要求使用 verbs 链路：请使用包含 rdma-core（libibverbs-dev、librdmacm-dev）的版本，或设置 link.backend "sim"</translation>
        </message>
        <message>
            <source>load the NIC's driver (for a ConnectX: `sudo modprobe mlx5_ib`), or for Soft-RoCE `sudo rdma link add rxe0 type rxe netdev &lt;interface&gt;`; `sonolink-cli probe` lists what the station has</source>
            <translation>请加载 NIC 的驱动（ConnectX：`sudo modprobe mlx5_ib`），Soft-RoCE 则执行 `sudo rdma link add rxe0 type rxe netdev &lt;interface&gt;`；`sonolink-cli probe` 可列出本工作站的硬件</translation>
        </message>
        <message>
            <source>Qt's xcb platform plugin present, and every library it needs</source>
            <translation>Qt 的 xcb 平台插件存在，且其所需的每个库均存在</translation>
        </message>
        <message>
            <source>%1 is missing</source>
            <translation>缺少 %1</translation>
        </message>
        <message>
            <source>`sudo apt install --reinstall libqt6gui6` (it ships the xcb plugin)</source>
            <translation>执行 `sudo apt install --reinstall libqt6gui6`（它包含 xcb 插件）</translation>
        </message>
        <message>
            <source>%1 does not load: %2</source>
            <translation>%1 无法加载：%2</translation>
        </message>
        <message>
            <source>install the library the error names (`apt-file search &lt;library&gt;` tells its package), or `sudo apt install --reinstall libqt6gui6`</source>
            <translation>请安装错误信息中提到的库（`apt-file search &lt;library&gt;` 可查出其所属软件包），或执行 `sudo apt install --reinstall libqt6gui6`</translation>
        </message>
        <message>
            <source>%1 loads</source>
            <translation>%1 可以加载</translation>
        </message>
        <message>
            <source>a display for the console ($DISPLAY or $WAYLAND_DISPLAY) that answers</source>
            <translation>控制台可用且有响应的显示（$DISPLAY 或 $WAYLAND_DISPLAY）</translation>
        </message>
        <message>
            <source>no display ($DISPLAY and $WAYLAND_DISPLAY are not set)</source>
            <translation>没有显示（未设置 $DISPLAY 和 $WAYLAND_DISPLAY）</translation>
        </message>
        <message>
            <source>the console (`sonolink`) needs one: run it from the desktop session, or on a virtual display with `xvfb-run -a sonolink`; `sonolink-cli` and its headless demo need none</source>
            <translation>控制台（`sonolink`）需要显示：请在桌面会话中运行，或用 `xvfb-run -a sonolink` 在虚拟显示上运行；`sonolink-cli` 及其无界面演示不需要显示</translation>
        </message>
        <message>
            <source>%1 does not answer: %2</source>
            <translation>%1 无响应：%2</translation>
        </message>
        <message>
            <source>start the display server (log in to the desktop), or `unset DISPLAY WAYLAND_DISPLAY` for the headless tools</source>
            <translation>请启动显示服务器（登录桌面），或为无界面工具执行 `unset DISPLAY WAYLAND_DISPLAY`</translation>
        </message>
        <message>
            <source>DISPLAY=%1 answers</source>
            <translation>DISPLAY=%1 有响应</translation>
        </message>
        <message>
            <source>WAYLAND_DISPLAY=%1 answers</source>
            <translation>WAYLAND_DISPLAY=%1 有响应</translation>
        </message>
        <message>
            <source>a font that covers Chinese (zh), for the console in Chinese</source>
            <translation>一种覆盖中文（zh）的字体，供中文界面的控制台使用</translation>
        </message>
        <message>
            <source>fontconfig could not be asked: %1</source>
            <translation>无法查询 fontconfig：%1</translation>
        </message>
        <message>
            <source>`sudo apt install fontconfig fonts-noto-cjk`</source>
            <translation>执行 `sudo apt install fontconfig fonts-noto-cjk`</translation>
        </message>
        <message>
            <source>no font covers Chinese: the console's Chinese text would show as boxes</source>
            <translation>没有覆盖中文的字体：控制台的中文文本将显示为方框</translation>
        </message>
        <message>
            <source>`sudo apt install fonts-noto-cjk` (or fonts-wqy-microhei)</source>
            <translation>执行 `sudo apt install fonts-noto-cjk`（或 fonts-wqy-microhei）</translation>
        </message>
        <message>
            <source>%1 families, e.g. %2</source>
            <translation>%1 个字体族，例如 %2</translation>
        </message>
        <message>
            <source>no file: the built-in defaults</source>
            <translation>无配置文件：使用内置默认值</translation>
        </message>
        <message>
            <source>every key valid</source>
            <translation>每个配置项均有效</translation>
        </message>
        <message>
            <source>correct each key named, then `sonolink-cli config check %1`</source>
            <translation>请更正所列的每个配置项，然后执行 `sonolink-cli config check %1`</translation>
        </message>
        <message>
            <source>%1: valid</source>
            <translation>%1：有效</translation>
        </message>
        <message>
            <source>no PACS node is configured: studies cannot leave this station</source>
            <translation>未配置 PACS 节点：检查无法从本工作站发出</translation>
        </message>
        <message>
            <source>add the hospital's PACS to dicom.nodes (or in the console: Settings…, PACS), then `sonolink-cli dicom echo --config FILE --node NAME`</source>
            <translation>请将医院的 PACS 添加到 dicom.nodes（或在控制台中：设置…，PACS），然后执行 `sonolink-cli dicom echo --config FILE --node NAME`</translation>
        </message>
        <message>
            <source>%1 of %2 answered: %3</source>
            <translation>%2 个中有 %1 个应答：%3</translation>
        </message>
        <message>
            <source>studies wait in the queue until the node answers. Nothing listening: the PACS is down, or its address or port is wrong; rejected: the PACS does not know our AE title (dicom.station_ae_title); timeout: a firewall or a busy PACS; TLS: the certificates, or TLS asked of a plain port. Try again with `sonolink-cli dicom echo --config FILE --node NAME`</source>
            <translation>检查将在队列中等待，直到节点应答。无服务监听：PACS 未运行，或其地址或端口有误；被拒绝：PACS 不认识本机的 AE 名称（dicom.station_ae_title）；超时：防火墙拦截或 PACS 繁忙；TLS：证书问题，或对普通端口要求了 TLS。请用 `sonolink-cli dicom echo --config FILE --node NAME` 重试</translation>
        </message>
        <message>
            <source>the system clock synchronised (NTP or PTP), its error bound within %1 ms</source>
            <translation>系统时钟已同步（NTP 或 PTP），误差上限在 %1 ms 以内</translation>
        </message>
        <message>
            <source>`sudo timedatectl set-ntp true` (systemd-timesyncd), or `sudo apt install chrony`; `timedatectl` shows the state. Study, series and frame times come from this clock</source>
            <translation>执行 `sudo timedatectl set-ntp true`（systemd-timesyncd），或 `sudo apt install chrony`；`timedatectl` 可显示状态。检查、序列和帧的时间均取自此时钟</translation>
        </message>
        <message>
            <source>the clock's state could not be read: %1</source>
            <translation>无法读取时钟状态：%1</translation>
        </message>
        <message>
            <source>the system clock is not synchronised</source>
            <translation>系统时钟未同步</translation>
        </message>
        <message>
            <source>synchronised, its error bound %1 ms</source>
            <translation>已同步，但误差上限为 %1 ms</translation>
        </message>
        <message>
            <source>synchronised, error bound %1 ms</source>
            <translation>已同步，误差上限 %1 ms</translation>
        </message>
        <message>
            <source>'%1' is not a display name (host:number)</source>
            <translation>“%1”不是显示名称（host:number）</translation>
        </message>
        <message>
            <source>the socket's path is too long</source>
            <translation>套接字路径过长</translation>
        </message>
        <message>
            <source>no address</source>
            <translation>无地址</translation>
        </message>
        <message>
            <source>XDG_RUNTIME_DIR is not set</source>
            <translation>未设置 XDG_RUNTIME_DIR</translation>
        </message>
        <message>
            <source>fc-list not found (fontconfig is not installed)</source>
            <translation>找不到 fc-list（未安装 fontconfig）</translation>
        </message>
        <message>
            <source>fc-list: %1</source>
            <translation>fc-list 出错：%1</translation>
        </message>
        <message>
            <source>dlopen failed</source>
            <translation>dlopen 失败</translation>
        </message>
        <message>
            <source>SonoLink is already running on this station (process %1): use its window. Two consoles would contend for the link, the recordings and the PACS queue.</source>
            <translation>SonoLink 已在本工作站运行（进程 %1）：请使用已打开的窗口。两个控制台会争用链路、录制和 PACS 队列。</translation>
        </message>
        <message>
            <source>cannot take the console's lock %1: %2</source>
            <translation>无法获取控制台锁 %1：%2</translation>
        </message>
        <message>
            <source>permission denied</source>
            <translation>权限不足</translation>
        </message>
        <message>
            <source>making %1 (%2)</source>
            <translation>创建 %1（%2）</translation>
        </message>
        <message>
            <source>%1 is not an HDF5 file</source>
            <translation>%1 不是 HDF5 文件</translation>
        </message>
        <message>
            <source>channel data of %1 waves x %2 channels x %3 samples is empty</source>
            <translation>通道数据（%1 次发射 x %2 通道 x %3 采样点）为空</translation>
        </message>
        <message>
            <source>%1 element positions for %2 channels</source>
            <translation>%2 个通道只有 %1 个阵元位置</translation>
        </message>
        <message>
            <source>%1 transmit angles for %2 waves</source>
            <translation>%2 次发射只有 %1 个发射角度</translation>
        </message>
        <message>
            <source>element %1: position %2 m is no number</source>
            <translation>阵元 %1：位置 %2 m 不是数值</translation>
        </message>
        <message>
            <source>the %1 elements all lie at x = %2 m: an aperture of no width cannot be imaged (the probe's element positions are missing)</source>
            <translation>全部 %1 个阵元都位于 x = %2 m：宽度为零的孔径无法成像（缺少探头的阵元位置）</translation>
        </message>
        <message>
            <source>wave %1: steering angle %2 rad is not an angle within +-90 degrees</source>
            <translation>发射 %1：偏转角 %2 rad 不在 ±90 度以内</translation>
        </message>
        <message>
            <source>sampling rate %1 Hz and sound speed %2 m/s must be positive</source>
            <translation>采样率 %1 Hz 和声速 %2 m/s 必须为正数</translation>
        </message>
        <message>
            <source>opening %1 to review it</source>
            <translation>打开 %1 以回顾</translation>
        </message>
        <message>
            <source>SonoLink start-up self-test</source>
            <translation>SonoLink 启动自检</translation>
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
        <name>sonolink::gui::HostsPanel</name>
        <message>
            <source>waiting</source>
            <translation>等待中</translation>
        </message>
        <message>
            <source>joined</source>
            <translation>已加入</translation>
        </message>
        <message>
            <source>lost</source>
            <translation>已丢失</translation>
        </message>
        <message>
            <source>refused</source>
            <translation>已拒绝</translation>
        </message>
        <message>
            <source>done</source>
            <translation>已结束</translation>
        </message>
        <message>
            <source>%1 (lost once)</source>
            <translation>%1（丢失 1 次）</translation>
        </message>
        <message>
            <source>%1 (lost %2 times)</source>
            <translation>%1（丢失 %2 次）</translation>
        </message>
        <message>
            <source>Host</source>
            <translation>主机</translation>
        </message>
        <message>
            <source>Channels</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Partials</source>
            <translation>部分图像</translation>
        </message>
        <message>
            <source>Frames without it</source>
            <translation>缺少其部分的帧</translation>
        </message>
        <message>
            <source>Late</source>
            <translation>迟到</translation>
        </message>
        <message>
            <source>Partial latency (ms)</source>
            <translation>部分图像延迟 (ms)</translation>
        </message>
        <message>
            <source>MB/s</source>
            <translation>MB/s</translation>
        </message>
        <message>
            <source>Heard (ms ago)</source>
            <translation>上次收到 (ms 前)</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>This station is not the display host of a cluster.</source>
            <translation>本工作站不是集群的显示主机。</translation>
        </message>
        <message>
            <source>Cluster %1, epoch %2: frames %3 complete, %4 incomplete, %5 dropped; %6 parts refused; added latency p50 %7 ms, p99 %8 ms</source>
            <translation>集群 %1，第 %2 期：完整帧 %3，不完整帧 %4，丢弃帧 %5；拒收部分图像 %6；附加延迟 p50 %7 ms，p99 %8 ms</translation>
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
        <message>
            <source>Laser shots fired</source>
            <translation>激光发射次数</translation>
        </message>
        <message>
            <source>fired</source>
            <translation>已发射</translation>
        </message>
        <message>
            <source>Laser shots missed</source>
            <translation>激光漏发次数</translation>
        </message>
        <message>
            <source>missed, late or dark</source>
            <translation>漏发、迟发或无脉冲</translation>
        </message>
        <message>
            <source>Pulse energy</source>
            <translation>脉冲能量</translation>
        </message>
        <message>
            <source>mJ</source>
            <translation>mJ</translation>
        </message>
        <message>
            <source>last pulse</source>
            <translation>最近脉冲</translation>
        </message>
        <message>
            <source>no laser (dual mode off)</source>
            <translation>无激光（双模式未开启）</translation>
        </message>
        <message>
            <source>%1 shots fired, %2 missed, late or dark in all; pulse to picture p99 %3 ms</source>
            <translation>共发射 %1 次，漏发、迟发或无脉冲共 %2 次；脉冲到显示 p99 %3 ms</translation>
        </message>
        <message>
            <source>no pulse in this interval</source>
            <translation>此间隔内无脉冲</translation>
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
        <name>sonolink::gui::PhotoacousticPanel</name>
        <message>
            <source>Normalise by pulse energy</source>
            <translation>按脉冲能量归一化</translation>
        </message>
        <message>
            <source>No laser fires: dual mode is off (acquisition.laser_rate_hz).</source>
            <translation>无激光发射：双模式未开启（acquisition.laser_rate_hz）。</translation>
        </message>
        <message>
            <source>Photoacoustic</source>
            <translation>光声</translation>
        </message>
        <message>
            <source>Ultrasound</source>
            <translation>超声</translation>
        </message>
        <message>
            <source>Overlay</source>
            <translation>叠加</translation>
        </message>
        <message>
            <source>Side by side</source>
            <translation>并排</translation>
        </message>
        <message>
            <source>Hot</source>
            <translation>热度</translation>
        </message>
        <message>
            <source>Iron</source>
            <translation>铁红</translation>
        </message>
        <message>
            <source>Each shot scaled by the session's mean pulse energy over its own (the photodiode's reading)</source>
            <translation>每次发射按本次会话的平均脉冲能量与其自身能量之比缩放（光电二极管读数）</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>Colour map</source>
            <translation>色图</translation>
        </message>
        <message>
            <source>Gain</source>
            <translation>增益</translation>
        </message>
        <message>
            <source>dB</source>
            <translation>dB</translation>
        </message>
        <message>
            <source>Dynamic range</source>
            <translation>动态范围</translation>
        </message>
        <message>
            <source>Threshold</source>
            <translation>阈值</translation>
        </message>
        <message>
            <source>%</source>
            <translation>%</translation>
        </message>
        <message>
            <source>Opacity</source>
            <translation>不透明度</translation>
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
