#!/usr/bin/env python3
"""Fills resources/translations/sonolink_zh_CN.ts from the glossary below: every message whose
source is in it gets its Simplified Chinese text (marked finished); the rest are left for a
translator and listed (exit 1). Run after `cmake --build build/default --target
update_translations` brings new strings in. The glossary is the one place the Chinese lives
besides the .ts: edit a translation here, run this, commit both."""
import pathlib
import sys
import xml.etree.ElementTree as ET

ZH = {
    # export and the PACS queue
    "Export failed: %1": "导出失败：%1",
    "Exported: %1": "已导出：%1",
    "Exporting… %1 %": "正在导出… %1 %",
    "Export cine": "导出动态图像",
    "PACS queue": "PACS 队列",
    "Exporting…": "正在导出…",
    "Not exported: start an exam first (Exam…, Ctrl+N).": "未导出：请先开始检查（检查…，Ctrl+N）。",
    "queued": "排队中",
    "sending": "发送中",
    "sent": "已发送",
    "committed": "已确认存储",
    "failed": "失败",
    "Retry": "重试",
    "Withdraw": "撤回",
    "Item": "条目",
    "File": "文件",
    "State": "状态",
    "Attempts": "尝试次数",
    "Next attempt": "下次尝试",
    "Last error": "最近错误",
    "%1 waiting, %2 failed, %3 in all": "%1 个等待，%2 个失败，共 %3 个",
    # the exam
    "Exam…": "检查…",
    "End exam": "结束检查",
    "No exam": "无检查",
    "Patient: %1, %2": "患者：%1，%2",
    "The %1 may not contain ^, =, \\ or a line break.": "%1不能包含 ^、=、\\ 或换行。",
    "A family name is needed.": "需要填写姓。",
    "The name is longer than DICOM's 64 characters.": "姓名超过 DICOM 规定的 64 个字符。",
    "The name in characters is longer than DICOM's 64 characters.": "汉字姓名超过 DICOM 规定的 64 个字符。",
    "A patient ID is needed.": "需要填写患者编号。",
    "The patient ID is longer than DICOM's 64 characters.": "患者编号超过 DICOM 规定的 64 个字符。",
    "The patient ID may not contain \\ or a line break.": "患者编号不能包含 \\ 或换行。",
    "The birth date is in the future.": "出生日期晚于今天。",
    "The birth date is before 1900.": "出生日期早于 1900 年。",
    "Sex must be M, F, O or unknown.": "性别必须为 M、F、O 或未知。",
    "The accession number is longer than DICOM's 16 characters.": "检查号超过 DICOM 规定的 16 个字符。",
    "The study description is longer than DICOM's 64 characters.": "检查描述超过 DICOM 规定的 64 个字符。",
    "e.g. 王": "例如 王",
    "e.g. 小明": "例如 小明",
    "unknown": "未知",
    "Start exam": "开始检查",
    "Query": "查询",
    "Exam": "检查",
    "Family name": "姓（拼音）",
    "Given name": "名（拼音）",
    "Family name (characters)": "姓（汉字）",
    "Given name (characters)": "名（汉字）",
    "Patient ID": "患者编号",
    "Birth date": "出生日期",
    "female": "女",
    "male": "男",
    "other": "其他",
    "Sex": "性别",
    "Accession number": "检查号",
    "Study description": "检查描述",
    "Patient": "患者",
    "Node": "节点",
    "Date": "日期",
    "ID": "编号",
    "Procedure": "检查项目",
    "Accession": "检查号",
    "No worklist node is configured (Settings).": "未配置工作列表节点（设置）。",
    "Use": "使用",
    "Worklist": "工作列表",
    "Asking %1…": "正在查询 %1…",
    "The worklist query failed: %1": "工作列表查询失败：%1",
    "Nothing scheduled.": "没有预约的检查。",
    "Scheduled exams: %1": "预约检查：%1",
    "Scheduled": "预约时间",
    "family name": "姓",
    "given name": "名",
    "family name (characters)": "姓（汉字）",
    "given name (characters)": "名（汉字）",
    "Save image…": "保存图像…",
    "Save image": "保存图像",
    "PNG images (*.png)": "PNG 图像 (*.png)",
    "Fit image": "适合窗口",
    "Link health": "链路状态",
    "RF": "射频",
    "View": "视图",
    "No image to save yet.": "尚无可保存的图像。",
    "The image could not be written to %1.": "无法将图像写入 %1。",
    # the picture's controls
    "mm ×%1": "毫米 ×%1",
    "Picture": "图像",
    "Gain (dB)": "增益 (dB)",
    "Range (dB)": "动态范围 (dB)",
    " mm": " 毫米",
    "Depth": "深度",
    "off": "关",
    "Persistence": "帧平均",
    "TGC (dB)": "时间增益补偿 (dB)",
    "Time-gain compensation, band %1 of %2 (near to far)": "时间增益补偿，第 %1 段，共 %2 段（由浅至深）",
    # the link-health panel
    "Throughput": "吞吐量",
    "Gb/s": "Gb/s",
    "payload": "有效载荷",
    "CRC / header errors": "CRC / 包头错误",
    "per 0.5 s": "每 0.5 秒",
    "CRC": "CRC",
    "header": "包头",
    "Frames dropped": "丢帧",
    "dropped": "丢弃",
    "Latency": "延迟",
    "ms": "毫秒",
    "p50": "p50",
    "p99": "p99",
    "PTP offset": "PTP 偏差",
    "µs": "微秒",
    "offset": "偏差",
    "Front-end temperature": "前端温度",
    "°C": "°C",
    "temperature": "温度",
    "not measured": "未测量",
    "no free buffer": "无空闲缓冲区",
    "blocks missing": "数据块缺失",
    "frames never seen": "帧未到达",
    "front end out of credit": "前端信用不足",
    "Most dropped: %1 (%2)": "丢帧主因：%1（%2）",
    "not reported": "未上报",
    # the RF view
    "e.g. 0, 63, 127": "例如 0, 63, 127",
    "Channels to show, 0 to %1, up to %2, separated by commas or spaces": "要显示的通道，0 至 %1，最多 %2 个，以逗号或空格分隔",
    "Channels": "通道",
    "%1 is not a channel (0 to %2)": "%1 不是有效通道（0 至 %2）",
    "at most %1 channels at once": "一次最多 %1 个通道",
    # main window
    "SonoLink": "SonoLink",
    "Acquisition": "采集",
    "Connect": "连接",
    "Live": "实时",
    "Freeze": "冻结",
    "Self-test…": "自检…",
    "Self-test, %1: %2: %3%4": "自检，%1：%2：%3%4",
    " What to do: %1": " 处理方法：%1",
    "Engine: %1": "引擎：%1",
    "Engine: %1 (%2)": "引擎：%1（%2）",
    "%1 frames/s, latency %2 ms": "%1 帧/秒，延迟 %2 毫秒",
    "idle": "空闲",
    "connecting": "正在连接",
    "self-test": "自检中",
    "ready": "就绪",
    "streaming": "采集中",
    "frozen": "已冻结",
    "error": "错误",
    # self-test session
    "No report yet: the self-test has not finished.": "尚无报告：自检尚未结束。",
    "Saved as %1": "已保存为 %1",
    "the self-test could not finish: %1": "自检未能完成：%1",
    "The QA report could not be kept: %1": "无法保存质控报告：%1",
    "There is no kept report to sign.": "没有可签名的已保存报告。",
    "Not signed: %1": "未签名：%1",
    "Signed by %1 (%2), meaning: %3": "签名人 %1（%2），含义：%3",
    "No override was given: %1": "未执行越权放行：%1",
    # B-mode view, RF plot
    "No image yet": "尚无图像",
    "mm": "mm",
    "time (µs)": "时间 (µs)",
    "amplitude (ADC counts)": "幅度 (ADC 计数)",
    "channel %1": "通道 %1",
    # QA report page
    "Sign…": "签名…",
    "Override…": "越权放行…",
    "QA report": "质控报告",
    "The record of this start: every step's verdict, figures, limit and baseline, under its SHA-256. Sign it to approve it; print or save it for the station's file.":
        "本次启动的记录：每个步骤的结论、测量值、限值与基线，并以 SHA-256 保护。签名即表示批准；可打印或保存以归入本工作站档案。",
    "Save PDF…": "保存 PDF…",
    "Print…": "打印…",
    "Not kept yet": "尚未保存",
    "Kept as %1 (and its PDF beside it)": "已保存为 %1（同目录下另有 PDF）",
    "Signed already": "已签名",
    "Acquisition is blocked: %1": "采集被阻止：%1",
    "Save the QA report": "保存质控报告",
    "PDF (*.pdf)": "PDF (*.pdf)",
    "Sign": "签名",
    "Your signature is bound to this report's content: your password proves who you are, and the meaning says what you sign for.":
        "您的签名与本报告内容绑定：密码证明您的身份，含义说明您签署的内容。",
    "Meaning": "含义",
    "reviewed and approved": "已审阅并批准",
    "performed the tests": "已执行测试",
    "reviewed": "已审阅",
    "Override": "越权放行",
    "A failed step blocks acquisition: %1. An override lets this station acquire until the next start. It is recorded, with your name and reason, in the QA report and the audit trail.":
        "有未通过的步骤阻止采集：%1。越权放行后本工作站可采集至下次启动。放行将连同您的姓名与理由记入质控报告和审计日志。",
    "Reason": "理由",
    # re-authentication dialog
    "User": "用户",
    "Password": "密码",
    # self-test page
    "pass": "通过",
    "warning": "警告",
    "FAIL": "失败",
    "running": "进行中",
    "Run again": "重新运行",
    "Cancel test": "取消测试",
    "Details…": "详情…",
    "Start-up self-test": "启动自检",
    "Before anyone scans, the station proves its set-up, the DMA ring's memory, the link's bit error rate, the probe's elements and the imaging chain on the front end's phantom, and that the PACS answers.":
        "在任何扫描之前，工作站逐项验证：系统设置、DMA 环形缓冲区内存、链路误码率、探头阵元、基于前端体模的成像链路，以及 PACS 是否应答。",
    "Step": "步骤",
    "Verdict": "结论",
    "Time (s)": "用时 (秒)",
    "Figures": "测量值",
    "Runs the selected steps again (every step when none is selected)": "重新运行所选步骤（未选择时运行全部步骤）",
    "Starting…": "正在开始…",
    "%1\n\nWhat to do: %2": "%1\n\n处理方法：%2",
    "Under way: %1": "进行中：%1",
    "Under way: %1 (%2)": "进行中：%1（%2）",
    "Finished: %1 passed, %2 with a warning, %3 failed": "已完成：%1 项通过，%2 项警告，%3 项失败",
    "Acquisition may start.": "可以开始采集。",
    "Acquisition is blocked: %1. Run the step again once fixed, or give an override with its reason on the next page.":
        "采集被阻止：%1。排除故障后请重新运行该步骤，或在下一页填写理由执行越权放行。",
    "Self-test step: %1": "自检步骤：%1",
    "%1 (with channel %2)": "%1（与通道 %2）",
    "Element map, %1 channels (green: ok; amber: weak or noisy; red: dead, swapped or uncorrelated)":
        "阵元图，共 %1 个通道（绿色：正常；琥珀色：信号弱或噪声大；红色：失效、接错或不相关）",
    "%n flagged channel(s)": "%n 个异常通道",
    "Channel": "通道",
    "Fault": "故障",
    "RMS (counts)": "均方根 (计数)",
    "SNR (dB)": "信噪比 (dB)",
    "Neighbour correlation": "相邻相关性",
    "Limit": "限值",
    "What to do": "处理方法",
    "Time": "用时",
    "%1 s": "%1 秒",
    "Blocks acquisition": "阻止采集",
    "yes": "是",
    "no": "否",
    "Bits compared": "比对比特数",
    "Bit errors": "误码数",
    "Losses of pattern lock": "码型失锁次数",
    "Blocks with CRC errors": "CRC 错误块数",
    "BER measured": "实测误码率",
    "BER upper bound": "误码率上限",
    "%1: %2": "%1：%2",
    "%1 (%2)": "%1（%2）",
    "station": "工作站",
    "ring memory": "环形缓冲区内存",
    "link BER": "链路误码率",
    "ring slots (DMA path)": "环形缓冲区槽位（DMA 通路）",
    "element check": "阵元检查",
    "phantom check": "体模检查",
    "PACS": "PACS",
    "memlock limit": "内存锁定上限",
    "huge pages": "大页内存",
    "CPU governor": "CPU 调频策略",
    "GPU": "GPU",
    "RDMA port": "RDMA 端口",
    "NUMA locality": "NUMA 亲和性",
    "PTP clock": "PTP 时钟",
    "writable folder": "可写文件夹",
    "free disk": "磁盘剩余空间",
    "recordings": "录制数据",
    "DICOM queue": "DICOM 队列",
    "ok": "正常",
    "dead": "失效",
    "weak": "信号弱",
    "noisy": "噪声大",
    "swapped": "接错",
    "uncorrelated": "不相关",
    # wizard
    "SonoLink start-up self-test": "SonoLink 启动自检",
    "Close": "关闭",
    "Start scanning": "开始扫描",
    "Overridden by %1: %2. Acquisition may start; the override is in the report and the audit trail.":
        "已由 %1 越权放行：%2。可以开始采集；此次放行已记入报告和审计日志。",
}


def main():
    path = pathlib.Path(__file__).with_name("sonolink_zh_CN.ts")
    tree = ET.parse(path)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text or ""
        translation = message.find("translation")
        if source not in ZH:
            missing.append(source)
            continue
        for child in list(translation):
            translation.remove(child)
        translation.attrib.pop("type", None)
        if message.get("numerus") == "yes":
            translation.text = None
            form = ET.SubElement(translation, "numerusform")
            form.text = ZH[source]
        else:
            translation.text = ZH[source]
    ET.indent(tree, space="    ")
    with open(path, "wb") as f:
        f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(f, encoding="utf-8", xml_declaration=False)
        f.write(b"\n")
    for source in missing:
        print(f"no translation for: {source!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
