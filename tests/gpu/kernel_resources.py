#!/usr/bin/env python3
"""The delay-and-sum kernels' resources for every way GpuKernelOptions offers, from the compiler
(needs nvcc, not a GPU): registers a thread and spills (ptxas), and per pixel and channel the
instructions that issue at the special-function unit's rate (16 a clock per SM on sm_80 and
sm_90, against 128 for a multiply-add): the reciprocal square root, the sine and cosine, and the
float/int conversions, counted in the PTX over the channel loop's unrolled copies.
docs/performance.md (GPU) quotes its table. --check (CTest gpu.kernel_resources): exit 1 unless
every way keeps what it promises: no conversion left in a loop that converts by rounding, and a
kernel built for full occupancy within 32 registers without spilling.
Usage: tests/gpu/kernel_resources.py [--nvcc PATH] [--arch 90] [--check]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = ("core/beamform/cuda/src/beamform_kernels.cu", "core/beamform/cuda/src/iq_kernels.cu")
INCLUDES = ("core/beamform/cuda/src", "core/beamform/include", "core/util/include")
SLOW = {"rsqrt": r"rsqrt\.approx", "sin": r"sin\.approx", "cos": r"cos\.approx",
        "f2i": r"cvt\.rzi\.s32\.f32", "i2f": r"cvt\.rn\.f32\.s(?:16|32)"}
# delayAndSum[FullOccupancy]<T, Window, rounding> and delayAndSumIq[FullOccupancy]<Window, rounding>,
# as their mangled names spell them.
KERNEL = re.compile(r"(delayAndSum(?:Iq)?)(FullOccupancy)?I([fs]?)Li(\d)ELb(\d)E")
WINDOWS = ("rectangular", "hann", "tukey")
FULL_OCCUPANCY_REGISTERS = 32


def describe(mangled):
    """(path, conversions, registers) in words, or None for a kernel that is not delay-and-sum."""
    m = KERNEL.search(mangled)
    if not m:
        return None
    kind, full, sample, window, rounding = m.groups()
    path = f"IQ, {WINDOWS[int(window)]}" if kind.endswith("Iq") else f"RF {'int16' if sample == 's' else 'float'}, {WINDOWS[int(window)]}"
    return path, "rounding" if rounding == "1" else "instructions", "full occupancy" if full else "free"


def compile_to(nvcc, arch, source, out, kind):
    command = [nvcc, "-std=c++20", "-O3", f"-arch=sm_{arch}", f"-{kind}", "-o", out, os.path.join(ROOT, source)]
    command += [f"-I{os.path.join(ROOT, d)}" for d in INCLUDES]
    if kind == "cubin":
        command += ["-Xptxas", "-v"]
    return subprocess.run(command, check=True, capture_output=True, text=True).stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--arch", default="90")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    kernels = {}  # (path, conversions, registers) -> {"registers": n, "spills": n, slow counts...}
    with tempfile.TemporaryDirectory() as tmp:
        for source in SOURCES:
            ptx = os.path.join(tmp, "k.ptx")
            compile_to(args.nvcc, args.arch, source, ptx, "ptx")
            for entry in re.finditer(r"\.entry (\S+)\((.*?)^}", open(ptx).read(), re.S | re.M):
                key = describe(entry.group(1))
                if key:
                    body = entry.group(2)
                    copies = max(1, len(re.findall(SLOW["rsqrt"], body)))  # one receive delay a copy of the loop
                    # The conversions of the set-up, outside the loop, leave a fraction: whole ones count.
                    kernels[key] = {k: len(re.findall(p, body)) // copies for k, p in SLOW.items()}
            log = compile_to(args.nvcc, args.arch, source, os.path.join(tmp, "k.cubin"), "cubin")
            key = None
            for line in log.splitlines():
                if m := re.search(r"Compiling entry function '(\S+)'", line):
                    key = describe(m.group(1))
                elif key and (m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)):
                    kernels.setdefault(key, {})["spills"] = int(m.group(1)) + int(m.group(2))
                elif key and (m := re.search(r"Used (\d+) registers", line)):
                    kernels.setdefault(key, {})["registers"] = int(m.group(1))
                    key = None
    print(f"{'kernel':<22} {'conversions':<13} {'registers':<15} {'regs':>4} {'spill':>5} " + " ".join(f"{k:>5}" for k in SLOW) + "  slow a step")
    broken = []
    for (path, conversions, registers), k in sorted(kernels.items()):
        slow = " ".join(f"{k.get(s, 0):>5}" for s in SLOW)
        print(f"{path:<22} {conversions:<13} {registers:<15} {k.get('registers', 0):>4} {k.get('spills', 0):>5} {slow}  {sum(k.get(s, 0) for s in SLOW):>5}")
        if conversions == "rounding" and k.get("f2i", 0) + k.get("i2f", 0):
            broken.append(f"{path}: conversions by rounding, yet {k['f2i']} F2I and {k['i2f']} I2F a step")
        if registers == "full occupancy" and (k.get("registers", 99) > FULL_OCCUPANCY_REGISTERS or k.get("spills", 0)):
            broken.append(f"{path}: built for full occupancy, yet {k.get('registers')} registers and {k.get('spills')} bytes spilled")
    if len(kernels) < 36:
        broken.append(f"{len(kernels)} kernels found, 36 expected (24 RF, 12 IQ): the names' pattern no longer matches")
    for line in broken:
        print("kernel_resources: " + line, file=sys.stderr)
    return 1 if args.check and broken else 0


if __name__ == "__main__":
    sys.exit(main())
