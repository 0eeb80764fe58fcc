"""The performance dashboard: one self-contained HTML page from a bench run.

    python -m opsnn report RUN.json -o report.html      (RUN.json: python -m opsnn.bench --json)
    python -m opsnn.dashboard RUN.json -o report.html [--models resnet_tiny] [--batches 1]

Per model (and batch): measured time of every configuration against
onnxruntime, the estimated (roofline) time of the report, conversions
inserted / folded / left, precision casts, memory saved by precision, and
compile-time figures; per op of the optimized module (configuration
`both`, else the first one with a report): fingerprint (class, FLOPs, bytes,
intensity), chosen layout and precision with their reasons, estimated time
and the measured time attributed to it, and its position on the target's
roofline (arithmetic intensity vs achieved FLOP/s under the bandwidth and
peak ceilings). Measured time exists per model only: an op's share of it is
its share of the model's estimated time (stated on the page). GPU cases
(the `gpu` section `python -m opsnn.bench --gpu/--gpu-json` merges from
bench/gpu/cases.py): per case our time against the roofline floor on the
GPU target (achieved fraction of the floor, of peak compute and of DRAM
bandwidth), PyTorch's cuBLAS/cuDNN time and our ratio to it, and the
cases on the GPU's roofline; a run without them says so. Plots are
matplotlib SVG embedded inline; nothing is fetched from elsewhere.
"""

from __future__ import annotations

import argparse
import html
import io
import json
import sys
from pathlib import Path

OURS = ("none", "alte", "precision", "both")
# the peers of opsnn.bench (a run without a peer shows it as "-")
ORDER = OURS + ("onnxruntime", "torch", "torch_cl", "iree")
COLORS = {"none": "#7f7f7f", "alte": "#1f77b4", "precision": "#ff7f0e", "both": "#2ca02c",
          "onnxruntime": "#9467bd", "torch": "#d62728", "torch_cl": "#e377c2",
          "iree": "#8c564b"}
DETAIL_CONFIGS = ("both", "alte", "precision", "none")


def _esc(v):
    return html.escape(str(v))


def _num(v, fmt="%.3g"):
    if isinstance(v, bool) or v is None:
        return "-" if v is None else str(v)
    if isinstance(v, (int, float)):
        return fmt % v
    return _esc(v)  # symbolic sizes ("3072*d0")


def _bytes(v):
    if not isinstance(v, (int, float)):
        return _num(v)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(v) < 1024 or unit == "GiB":
            return f"{v:.0f} {unit}" if unit == "B" else f"{v:.1f} {unit}"
        v /= 1024.0


def _svg(fig):
    import matplotlib.pyplot as plt
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _plt():
    import warnings
    import matplotlib
    # Log-axis tick labels go through mathtext, whose pyparsing calls warn
    # with newer pyparsing releases.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"matplotlib\.")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"pyparsing")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.fonttype": "none", "font.size": 9, "svg.hashsalt": "opsnn"})
    return plt


def _function(report):
    funcs = (report or {}).get("functions") or []
    return funcs[0] if funcs else {}


def _static(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def op_rows(report, measured_ms):
    """Per-op rows of a report with the measured model time attributed by
    each op's share of the estimated time."""
    f = _function(report)
    total_est = (f.get("totals") or {}).get("estimated_seconds")
    rows = []
    for op in f.get("ops", []):
        est = op.get("estimated_seconds")
        attributed = None
        if _static(est) and _static(total_est) and total_est > 0 and measured_ms:
            attributed = measured_ms * 1e-3 * est / total_est
        flops = op.get("flops")
        achieved = (flops / attributed if _static(flops) and attributed and flops > 0 else None)
        rw = [op.get("bytes_read"), op.get("bytes_written")]
        rows.append({**op, "bytes": sum(rw) if all(_static(b) for b in rw) else None,
                     "attributed_seconds": attributed, "achieved_flops": achieved})
    return rows


def model_point(report, measured_ms):
    t = (_function(report).get("totals") or {})
    flops, nbytes = t.get("flops"), t.get("bytes")
    if not (_static(flops) and _static(nbytes) and nbytes > 0 and measured_ms):
        return None
    return {"intensity": flops / nbytes, "achieved": flops / (measured_ms * 1e-3)}


def roofline_svg(run, entry, key, rows):
    plt = _plt()
    ceil = run.get("ceilings") or {}
    bw = (ceil.get("dram_bandwidth_gbps") or 0) * 1e9
    peaks = {k: v * 1e12 for k, v in (ceil.get("peak_tflops") or {}).items() if v}
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    pts = [r for r in rows if _static(r.get("intensity")) and r["intensity"] > 0
           and r.get("achieved_flops")]
    xs = [r["intensity"] for r in pts] or [0.1, 100]
    lo, hi = min(xs + [0.05]) / 2, max(xs + [100]) * 2
    import numpy as np
    grid = np.logspace(np.log10(lo), np.log10(hi), 200)
    for name, peak in sorted(peaks.items(), key=lambda kv: -kv[1])[:3]:
        y = np.minimum(grid * bw, peak) if bw else np.full_like(grid, peak)
        ax.plot(grid, y, lw=1.2, label=f"ceiling {name} ({peak / 1e12:g} TFLOP/s, "
                                          f"{bw / 1e9:g} GB/s)")
    classes = sorted({r.get("class", "?") for r in pts})
    cmap = plt.get_cmap("tab10")
    for i, cls in enumerate(classes):
        sel = [r for r in pts if r.get("class") == cls]
        ax.scatter([r["intensity"] for r in sel], [r["achieved_flops"] for r in sel], s=14,
                   color=cmap(i % 10), label=f"{cls} ops (attributed)", alpha=0.8)
    mp = model_point((entry["configs"].get(key) or {}).get("report"),
                     (entry["configs"].get(key) or {}).get("median_ms"))
    if mp:
        ax.scatter([mp["intensity"]], [mp["achieved"]], marker="*", s=120, color="black",
                   label="whole model (measured)", zorder=5)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("achieved FLOP/s")
    ax.set_title(f"{entry['model']} batch {entry['batch']}: roofline, config '{key}', "
                 f"target {run.get('target')}")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def times_svg(run):
    plt = _plt()
    entries = [e for e in run.get("models", []) if not e.get("skipped")]
    if not entries:
        return ""
    import numpy as np
    fig, ax = plt.subplots(figsize=(max(6.4, 0.9 * len(entries) + 2), 3.4))
    width = 0.8 / len(ORDER)
    x = np.arange(len(entries))
    for i, key in enumerate(ORDER):
        vals = [(e["configs"].get(key) or {}).get("median_ms") or 0 for e in entries]
        ax.bar(x + (i - len(ORDER) / 2 + 0.5) * width, vals, width, label=key,
               color=COLORS[key])
    ax.set_xticks(x, [f"{e['model']}\nb{e['batch']}" for e in entries], fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("median ms (log)")
    ax.set_title("measured CPU time per model and configuration (missing bar: not timed)")
    ax.legend(fontsize=7, ncol=len(ORDER))
    ax.grid(True, axis="y", which="both", lw=0.3)
    return _svg(fig)


def scaling_svg(run):
    series = run.get("scaling") or []
    if not series:
        return ""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for s in series:
        pts = [p for p in s["points"] if p["ops"] > 0]
        e = s.get("time_exponent")
        axes[0].plot([p["ops"] for p in pts], [p.get("cpu_s", p["wall_s"]) for p in pts], "o-",
                     label=f"{s['stage']} (exp. {e:.2f})" if e is not None else s["stage"])
        m = s.get("memory_exponent")
        axes[1].plot([p["ops"] for p in pts], [p["peak_rss_mb"] for p in pts], "o-",
                     label=f"{s['stage']} (exp. {m:.2f})" if m is not None else s["stage"])
    for ax, what in zip(axes, ("CPU time of the child (s)", "peak memory (MB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("ops in the graph")
        ax.set_ylabel(what)
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("compile cost against graph size (exponent fitted above the empty function)")
    return _svg(fig)


def gpu_roofline_svg(gpu):
    """The timed GPU cases (ours and, hollow, PyTorch's) on the GPU
    target's roofline; "" when nothing was timed."""
    rows = [r for r in gpu.get("cases", []) if _static(r.get("ours_ms")) and r["ours_ms"] > 0]
    if not rows:
        return ""
    plt = _plt()
    import numpy as np
    ceil = gpu.get("ceilings") or {}
    bw = (ceil.get("dram_bandwidth_gbps") or 0) * 1e9
    # FP16 and FP32, and the peak of any other operand type a case was
    # timed in (BF16, TF32, INT8: its floor's peak_key).
    shown = {"fp16", "fp32"} | {r.get("peak_key") for r in rows}
    peaks = {k: v * 1e12 for k, v in (ceil.get("peak_tflops") or {}).items()
             if v and k in shown}
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    xs = [r["intensity"] for r in rows]
    grid = np.logspace(np.log10(min(xs + [0.1]) / 2), np.log10(max(xs + [1000]) * 2), 200)
    for name, peak in sorted(peaks.items(), key=lambda kv: -kv[1]):
        ax.plot(grid, np.minimum(grid * bw, peak) if bw else np.full_like(grid, peak), lw=1.2,
                label=f"ceiling {name} ({peak / 1e12:g} TFLOP/s, {bw / 1e9:g} GB/s)")
    cmap = plt.get_cmap("tab10")
    groups = sorted({r.get("group", "?") for r in rows})
    for i, g in enumerate(groups):
        sel = [r for r in rows if r.get("group") == g]
        ax.scatter([r["intensity"] for r in sel],
                   [r["flops"] / (r["ours_ms"] * 1e-3) for r in sel], s=18,
                   color=cmap(i % 10), label=f"{g}: ops-nn")
        vend = [r for r in sel if _static(r.get("vendor_ms")) and r["vendor_ms"] > 0]
        if vend:
            ax.scatter([r["intensity"] for r in vend],
                       [r["flops"] / (r["vendor_ms"] * 1e-3) for r in vend], s=18,
                       facecolors="none", edgecolors=cmap(i % 10),
                       label=f"{g}: cuBLAS/cuDNN (PyTorch)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP/byte, minimum traffic)")
    ax.set_ylabel("achieved FLOP/s")
    ax.set_title(f"GPU cases on {gpu.get('device')}: roofline of target {gpu.get('target')}")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def _gpu_section(run):
    gpu = run.get("gpu")
    if not gpu:
        why = run.get("gpu_skipped")
        return ("<h2>GPU cases</h2><p class=note>No GPU results are in this run"
                + (f" ({_esc(why)})" if why else "") + ": <code>python -m opsnn.bench --gpu"
                "</code> on a machine with a CUDA device, or <code>--gpu-json FILE</code> with "
                "the JSON of <code>bench/gpu/cases.py</code> (bench/gpu/run.sh writes "
                "<code>$OUT/gpu.json</code>).</p>")
    ceil = gpu.get("ceilings") or {}
    peaks = ceil.get("peak_tflops") or {}
    mode = gpu.get("mode")
    out = ["<h2>GPU cases</h2>",
           f"<p class=note>device <b>{_esc(gpu.get('device'))}</b>; mode <b>{_esc(mode)}</b>; "
           f"target <b>{_esc(gpu.get('target'))}</b> ({_esc(ceil.get('dram_bandwidth_gbps'))} "
           f"GB/s, FP16 tensor {_esc(peaks.get('fp16'))} / FP32 {_esc(peaks.get('fp32'))} "
           f"TFLOP/s), chip {_esc(gpu.get('chip'))}, pipeline <code>{_esc(gpu.get('pipeline'))}"
           f"</code>; cuBLAS/cuDNN: {_esc(gpu.get('torch'))}; from "
           f"<code>{_esc(gpu.get('source', 'bench/gpu/cases.py'))}</code>. Floor: max(FLOPs / "
           "peak of the operand type, minimum bytes / DRAM bandwidth); achieved: floor / our "
           "time (1 = on the roofline); compute and bandwidth: the fractions of peak FLOP/s "
           "and of DRAM bandwidth our time reaches. Our time is ops-nn-run's whole call "
           f"({_esc((gpu.get('timing') or {}).get('what', 'median'))}); PyTorch's is CUDA-event "
           "time of device-resident tensors, best of default and channels_last. Every "
           "answer is checked against NumPy before it is timed.</p>"]
    if mode == "dry-run":
        out.append("<p class='note bad'>Dry run: every case lowered and assembled with "
                   "ptxas, the small ones checked on the CPU; nothing was timed on a GPU.</p>")
    elif mode != "gpu":
        out.append(f"<p class='note bad'>Mode {_esc(mode)}: the times are not GPU times.</p>")
    head = ("<tr><th class=l>case</th><th class=l>group</th><th class=l>shape</th>"
            "<th>GFLOP</th><th>MiB moved</th><th>our ms</th><th>floor ms (bound)</th>"
            "<th>achieved (floor / ours)</th><th>compute fraction</th>"
            "<th>bandwidth fraction</th><th>cuBLAS/cuDNN ms</th><th>ours / vendor</th>"
            "<th>rel. L2 (tol.)</th><th class=l>tensor cores</th><th>ptxas regs / spill B</th>"
            "<th class=l>status</th></tr>")
    rows = [head]
    for r in gpu.get("cases", []):
        ptx = r.get("ptxas") or {}
        vendor = (f"{_num(r.get('vendor_ms'), '%.3f')} ({_esc(r.get('vendor_format'))})"
                  if _static(r.get("vendor_ms")) else _esc(r.get("vendor_status") or "-"))
        status = r.get("status", "-")
        cls = "bad" if r.get("failed") else "ok"
        frac = lambda k: _num(100 * r[k] if _static(r.get(k)) else None, "%.3g") + (
            "%" if _static(r.get(k)) else "")
        rows.append(
            f"<tr><td class=l>{_esc(r.get('name'))}</td><td class=l>{_esc(r.get('group'))}</td>"
            f"<td class=l>{_esc(r.get('shape'))}</td>"
            f"<td>{_num(r['flops'] / 1e9 if _static(r.get('flops')) else None, '%.2f')}</td>"
            f"<td>{_num(r['bytes'] / 2**20 if _static(r.get('bytes')) else None, '%.1f')}</td>"
            f"<td>{_num(r.get('ours_ms'), '%.3f')}</td>"
            f"<td>{_num(r.get('floor_ms'), '%.4g')} ({_esc(r.get('bound', '-'))})</td>"
            f"<td>{frac('achieved_fraction')}</td><td>{frac('compute_fraction')}</td>"
            f"<td>{frac('bandwidth_fraction')}</td><td>{vendor}</td>"
            f"<td>{_num(r.get('ratio_to_vendor'), '%.2f')}</td>"
            f"<td>{_num(r.get('rel_l2'), '%.1e')} ({_num(r.get('tolerance'), '%g')})</td>"
            f"<td class=l>{'mma.sync' if ptx.get('tensor_cores') else 'no'}</td>"
            f"<td>{_num(ptx.get('max_registers'), '%d')} / "
            f"{_num(ptx.get('spill_bytes'), '%d')}</td>"
            f"<td class='l {cls}'>{_esc(status)}</td></tr>")
    out.append("<table>" + "".join(rows) + "</table>")
    for c in gpu.get("comparisons", []):
        ratio = c.get("ratio")
        out.append(f"<p class=note>{_esc(c.get('what'))}: " +
                   (f"<b class={'ok' if c.get('met') else 'bad'}>{ratio:.2f}x</b> (goal &ge; "
                    f"{_num(c.get('goal'), '%g')}x)" if _static(ratio) else "n/a (not timed)")
                   + "</p>")
    out.append(gpu_roofline_svg(gpu))
    return "".join(out)


CSS = """
body{font-family:sans-serif;margin:16px;color:#222;max-width:1400px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}
h3{font-size:14px}table{border-collapse:collapse;font-size:12px;margin:6px 0}
td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}.bad{color:#b00}.ok{color:#070}
.note{font-size:12px;color:#555}details{margin:6px 0}summary{cursor:pointer;font-size:13px}
"""


def _config_table(entry):
    head = ("<tr><th class=l>config</th><th>median ms</th><th>min..max ms</th><th>x none</th>"
            "<th>x onnxruntime</th><th>estimated ms (report)</th><th>measured / estimated</th>"
            "<th>rel. L2 vs onnxruntime</th><th>conversions inserted / folded / left</th>"
            "<th>precision casts</th><th>weights</th><th>peak activations</th>"
            "<th>memory saved</th><th>optimize s / MB</th><th>lower s / MB</th>"
            "<th class=l>status</th></tr>")
    out = [head]
    for key in ORDER:
        c = entry["configs"].get(key)
        if c is None:
            continue
        rep = c.get("report")
        t = (_function(rep).get("totals") or {})
        mem = (rep or {}).get("memory") or {}
        est = t.get("estimated_seconds")
        est_ms = est * 1e3 if _static(est) else None
        med = c.get("median_ms")
        conv = c.get("conversions") or {}
        o, lo = c.get("optimize") or {}, c.get("lower") or {}
        status = c.get("status", "-")
        cls = "ok" if status == "ok" else "bad"
        out.append(
            f"<tr><td class=l>{_esc(key)}</td><td>{_num(med, '%.3f')}</td>"
            f"<td>{_num(c.get('min_ms'), '%.3f')}..{_num(c.get('max_ms'), '%.3f')}</td>"
            f"<td>{_num(c.get('ratio_to_none'), '%.2f')}</td>"
            f"<td>{_num(c.get('ratio_to_onnxruntime'), '%.2f')}</td>"
            f"<td>{_num(est_ms, '%.4f')}</td>"
            f"<td>{_num(med / est_ms if med and est_ms else None, '%.1f')}</td>"
            f"<td>{_num(c.get('rel_l2_vs_onnxruntime'), '%.1e')}</td>"
            f"<td>{_num(conv.get('inserted'), '%d')} / {_num(conv.get('folded'), '%d')} / "
            f"{_num(conv.get('remaining'), '%d')}</td>"
            f"<td>{_num(conv.get('precision_casts'), '%d')}</td>"
            f"<td>{_bytes(mem.get('weight_bytes'))} (fp32 {_bytes(mem.get('weight_bytes_fp32'))})</td>"
            f"<td>{_bytes(mem.get('peak_activation_bytes'))} "
            f"(fp32 {_bytes(mem.get('peak_activation_bytes_fp32'))})</td>"
            f"<td>{_num(100 * mem['saved_fraction'] if _static(mem.get('saved_fraction')) else None, '%.1f')}%</td>"
            f"<td>{_num(o.get('wall_s'), '%.2f')} / {_num(o.get('peak_rss_mb'), '%.0f')}</td>"
            f"<td>{_num(lo.get('wall_s'), '%.2f')} / {_num(lo.get('peak_rss_mb'), '%.0f')}</td>"
            f"<td class='l {cls}'>{_esc(status)}</td></tr>")
    return "<table>" + "".join(out) + "</table>"


def _op_table(rows):
    head = ("<tr><th>#</th><th class=l>op</th><th class=l>loc</th><th class=l>class</th>"
            "<th>FLOPs</th><th>bytes moved</th><th>intensity</th><th class=l>layout</th>"
            "<th class=l>layout reason</th><th class=l>precision</th>"
            "<th class=l>precision reason</th><th>estimated µs</th><th>measured µs (attributed)</th>"
            "<th>achieved GFLOP/s</th><th class=l>bound</th></tr>")
    out = [head]
    for i, r in enumerate(rows):
        est, att = r.get("estimated_seconds"), r.get("attributed_seconds")
        out.append(
            f"<tr><td>{i}</td><td class=l>{_esc(r.get('op'))}</td>"
            f"<td class=l>{_esc(r.get('loc', ''))}</td><td class=l>{_esc(r.get('class'))}</td>"
            f"<td>{_num(r.get('flops'), '%d')}</td><td>{_num(r.get('bytes'), '%d')}</td>"
            f"<td>{_num(r.get('intensity'), '%.2f')}</td>"
            f"<td class=l>{_esc(r.get('layout', ''))}</td>"
            f"<td class=l>{_esc(r.get('layout_reason', ''))}</td>"
            f"<td class=l>{_esc(r.get('precision', ''))}</td>"
            f"<td class=l>{_esc(r.get('precision_reason', r.get('reason', '')))}</td>"
            f"<td>{_num(est * 1e6 if _static(est) else None, '%.3f')}</td>"
            f"<td>{_num(att * 1e6 if att else None, '%.3f')}</td>"
            f"<td>{_num(r['achieved_flops'] / 1e9 if r.get('achieved_flops') else None, '%.3f')}</td>"
            f"<td class=l>{_esc(r.get('bound', ''))}</td></tr>")
    return "<table>" + "".join(out) + "</table>"


def _compile_and_scaling(run):
    out = []
    scaling = run.get("scaling") or []
    if scaling:
        out.append("<h2>Compile cost against graph size</h2>")
        out.append(scaling_svg(run))
        rows = ["<tr><th class=l>stage</th><th class=l>ops: wall s / peak MB</th>"
                "<th>CPU-time exponent (wall)</th><th>memory exponent</th>"
                "<th class=l>fastest-growing pass (>= 5% of the time)</th></tr>"]
        for s in scaling:
            pts = ", ".join(f"{p['ops']}: {p['wall_s']:.2f} / {p['peak_rss_mb']:.0f}"
                            for p in s["points"])
            fp = s.get("fastest_growing_pass")
            fps = (f"{fp['pass']} (exponent {fp['exponent']:.2f}, "
                   f"{100 * fp['share_large']:.0f}% of the time)" if fp else "-")
            cls = "bad" if s.get("superlinear") else "ok"
            rows.append(f"<tr><td class=l>{_esc(s['stage'])}</td><td class=l>{_esc(pts)}</td>"
                        f"<td class={cls}>{_num(s.get('time_exponent'), '%.2f')} "
                        f"({_num(s.get('wall_exponent'), '%.2f')})</td>"
                        f"<td>{_num(s.get('memory_exponent'), '%.2f')}</td>"
                        f"<td class=l>{_esc(fps)}</td></tr>")
        out.append("<table>" + "".join(rows) + "</table>")
    return "".join(out)


def render(run, models=None, batches=None) -> str:
    """The dashboard of bench run `run` (a dict) as an HTML string."""
    if run.get("schema") != "opsnn-bench":
        raise ValueError("not a bench run (python -m opsnn.bench --json): schema "
                         f"{run.get('schema')!r}")
    entries = [e for e in run.get("models", [])
               if (not models or e["model"] in models) and (not batches or e["batch"] in batches)]
    view = dict(run, models=entries)
    ms, me = run.get("machine_start") or {}, run.get("machine_end") or {}
    ceil = run.get("ceilings") or {}
    timing = run.get("timing") or {}
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
             f"<title>ops-nn dashboard</title><style>{CSS}</style></head><body>",
             "<h1>ops-nn performance dashboard</h1>",
             f"<p class=note>command <code>{_esc(run.get('command'))}</code>; "
             f"{_esc(ms.get('time'))}; {_esc(ms.get('cpus'))} CPUs; load average (1/5/15 min) "
             f"{_esc(ms.get('load_avg_1_5_15'))} at start, {_esc(me.get('load_avg_1_5_15'))} at end; "
             f"{_esc(timing.get('rounds'))} interleaved rounds x {_esc(timing.get('repeat'))} runs; "
             f"target <b>{_esc(run.get('target'))}</b> ({_esc(ceil.get('dram_bandwidth_gbps'))} GB/s, "
             f"peaks {_esc({k: v for k, v in (ceil.get('peak_tflops') or {}).items() if v})} "
             f"TFLOP/s).</p>",
             "<p class=note>Configurations: " + "; ".join(
                 f"<b>{_esc(k)}</b>: {_esc(v.get('label'))}"
                 + (f" (<code>{_esc(v['options'])}</code>)" if v.get("options") else "")
                 for k, v in (run.get("configs") or {}).items()) + ". Measured times are "
             "medians over the rounds; per-op measured times are the model's measured time "
             "split by each op's share of the estimated (roofline) time: an attribution, "
             "not a per-op measurement.</p>"]
    parts.append("<h2>Measured time</h2>" + times_svg(view))
    summary = ["<tr><th class=l>model</th><th>batch</th>" + "".join(
        f"<th>{k} ms</th>" for k in ORDER) + "<th>best ours x onnxruntime</th>"
        "<th>best ours x best peer</th></tr>"]
    for e in entries:
        if e.get("skipped"):
            summary.append(f"<tr><td class=l>{_esc(e['model'])}</td><td>{e['batch']}</td>"
                           f"<td class='l bad' colspan={len(ORDER) + 2}>skipped: "
                           f"{_esc(e['skipped'])}</td></tr>")
            continue
        ours = [(e["configs"].get(k) or {}).get("median_ms") for k in OURS]
        ours = [v for v in ours if v]
        ort = (e["configs"].get("onnxruntime") or {}).get("median_ms")
        summary.append(f"<tr><td class=l>{_esc(e['model'])}</td><td>{e['batch']}</td>" + "".join(
            f"<td>{_num((e['configs'].get(k) or {}).get('median_ms'), '%.3f')}</td>"
            for k in ORDER) + f"<td>{_num(min(ours) / ort if ours and ort else None, '%.2f')}"
            f"</td><td>{_num(min(ours) / e['best_peer_ms'] if ours and e.get('best_peer_ms') else None, '%.2f')}"
            f" ({_esc(e.get('best_peer') or '-')})</td></tr>")
    parts.append("<table>" + "".join(summary) + "</table>")
    for e in entries:
        if e.get("skipped"):
            continue
        parts.append(f"<h2 id='{_esc(e['model'])}-b{e['batch']}'>{_esc(e['model'])}, "
                     f"batch {e['batch']}</h2>")
        parts.append(f"<p class=note>inputs {_esc(e.get('inputs'))}; {_esc(e.get('onnx_nodes'))} "
                     f"ONNX nodes.</p>")
        parts.append(_config_table(e))
        key = next((k for k in DETAIL_CONFIGS if (e["configs"].get(k) or {}).get("report")), None)
        if key is None:
            continue
        c = e["configs"][key]
        rows = op_rows(c["report"], c.get("median_ms"))
        parts.append(roofline_svg(run, e, key, rows))
        parts.append(f"<details><summary>per-op table of configuration '{_esc(key)}' "
                     f"({len(rows)} ops)</summary>{_op_table(rows)}</details>")
    parts.append(_gpu_section(run))
    parts.append(_compile_and_scaling(view))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_dashboard(run_json, output, models=None, batches=None) -> int:
    from .tools import atomic_file, progress
    if not output:
        raise ValueError("a bench run needs -o report.html")
    run = json.loads(Path(run_json).read_text())
    page = render(run, models, batches)
    with atomic_file(output) as f:
        f.write(page)
    progress(f"wrote {output} ({len(page) // 1024} KiB)")
    return 0


def find_chromium():
    import shutil
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(html_path, png_path, width=1280, height=2000, timeout=120):
    """Renders `html_path` with headless Chromium into `png_path`."""
    import os
    import subprocess
    import tempfile
    chromium = find_chromium()
    if chromium is None:
        raise FileNotFoundError("Chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="opsnn-chromium-") as profile:
        cmd = [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
               "--no-first-run", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
               f"--window-size={width},{height}", f"--screenshot={os.path.abspath(png_path)}",
               Path(html_path).resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0 or not Path(png_path).is_file():
        raise RuntimeError(f"chromium --screenshot failed ({proc.returncode}): "
                           f"{proc.stderr.strip()[-800:]}")
    return png_path


def check_screenshot(png_path, width, height):
    """(ok, message): the PNG has the window's size and is not blank (a
    page that rendered text, tables and plots has many colours and a good
    share of pixels that differ from the background)."""
    import numpy as np
    from matplotlib import image
    data = image.imread(str(png_path))
    h, w = data.shape[:2]
    if (w, h) != (width, height):
        return False, f"{png_path}: {w}x{h}, expected {width}x{height}"
    rgb = (np.asarray(data[..., :3]) * 255).astype(np.uint8).reshape(-1, 3)
    colors, counts = np.unique(rgb, axis=0, return_counts=True)
    background = counts.max() / counts.sum()
    inked = 1.0 - background
    if len(colors) < 16 or inked < 0.02:
        return False, (f"{png_path}: looks blank ({len(colors)} colours, "
                       f"{100 * inked:.2f}% of pixels off the background)")
    return True, (f"{png_path}: {w}x{h}, {len(colors)} colours, {100 * inked:.1f}% of pixels "
                  "off the background")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m opsnn.dashboard",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("run", help="JSON of python -m opsnn.bench --json")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--models", help="comma-separated models to show (default: all)")
    p.add_argument("--batches", help="comma-separated batches to show (default: all)")
    args = p.parse_args(argv)
    try:
        return write_dashboard(args.run, args.output,
                               args.models.split(",") if args.models else None,
                               [int(b) for b in args.batches.split(",")] if args.batches else None)
    except (ValueError, OSError) as error:
        print(f"opsnn.dashboard: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
