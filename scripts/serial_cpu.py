#!/usr/bin/env python3
"""Where a process's CPU time runs while the other core idles: the part that sets its wall time on two cores.

    python3 scripts/serial_cpu.py [--runs N] -- BIN sticker PHOTO -o OUT.png --mask MASK.png

Runs the command N times under `perf record` (needs perf and its tracepoints: root, or
perf_event_paranoid ≤ 1), with the scheduler's switch and wake-up events beside a CPU-clock
sample every 0.25 ms of CPU with its call stack. Replaying the events, each of the process's threads
is "wanting a core" while it runs or is runnable (preempted), and not while it sleeps (waits for a
task, a lock, I/O). A sample taken while only one thread wanted a core is serial CPU: the other
core had nothing of ours to do. Ideal wall on two idle cores ≈ serial + parallel / 2.

Unlike wall time, this holds on a busy machine: a thread preempted by another process still wants
a core, so contention stretches both columns alike instead of moving time between them.
Samples are put in stages by the names on their stacks (first match in STAGES).
"""
import argparse, collections, os, re, subprocess, sys, tempfile

STAGES = [
    ('network', r'NeuralNetAVX|NeuralNet11Convolution|InferenceSession|neuralnet_bf16_winograd|ConvolutionRunner'),
    ('model load', r'CutOutModel|ONNX|NeuralNetwork|Protobuf|bf16_pack|FusionPlan'),
    ('decode', r'libjpeg|ImageDecoder|sic_jpeg|reorient'),
    ('PNG encode', r'png|deflate|adler|ImageEncoder|crc32'),
    ('network input', r'inputTensor|ColorPlanesV5image|resampled|U2NetSaliency'),
    ('subjects', r'SubjectRegions|ConnectedComponents|SaliencyCleanup|PhotoSubjects|UpsideDown|SubjectPresence'),
    ('refinement', r'GuidedFilter|BoxFilter|ForegroundEstimator|FullResolution|ColorPlanesV7reduced|Plane.*resized|SubjectExtractor'),
    ('style', r'StickerRenderer|DistanceTransform|Layers|StickerStyle'),
    ('colours', r'ColorExtractor|ColorHistogram|WeightedKMeans|Gradient'),
    ('pack (ZIP)', r'ZIPFoundation|Pack.*write'),
    ('file writes', r'AtomicFile'),
    ('start: dynamic loader', r'_dl_|ld-linux|do_lookup|handle_amd'),
    ('start: runtime, arguments', r'ArgumentParser|swift_conformsTo|StickersCommand|StickerCommand|MakeCommand'),
]
HEADER = re.compile(r'^\s*(\S+)\s+(\d+)\s+(?:\[(\d+)\]\s+)?([\d.]+):\s+(\d+\s+)?(\S+):\s*(.*)$')


def events(text):
    cur = None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            if cur: yield cur
            _, tid, _, t, _, ev, rest = m.groups()
            cur = (float(t), int(tid), ev, rest, [])
        elif line.strip() and cur is not None:
            cur[4].append(re.sub(r'\+0x[0-9a-f]+.*', '', line.strip().split(None, 1)[-1]))
    if cur: yield cur


def stage(frames):
    joined = ' '.join(frames)
    for name, pattern in STAGES:
        if re.search(pattern, joined): return name
    return 'other (allocator, kernel, runtime)'


def replay(text, pid, totals):
    ours, wanting = {pid}, {}
    for t, tid, ev, rest, frames in events(text):
        if ev == 'sched:sched_switch':
            m = re.search(r'prev_pid=(\d+).*prev_state=(\S+).*next_pid=(\d+)', rest)
            prev, state, nxt = int(m.group(1)), m.group(2), int(m.group(3))
            if prev in ours: wanting[prev] = state.startswith('R')
            if nxt in ours: wanting[nxt] = True
        elif ev.startswith('sched:sched_wakeup'):
            woken = int(re.search(r'pid=(\d+)', rest).group(1))
            if ev.endswith('_new') and tid in ours: ours.add(woken)
            if woken in ours: wanting[woken] = True
        elif ev.startswith('cpu-clock') and tid in ours:
            wanting[tid] = True
            busy = sum(wanting.values())
            totals[(stage(frames), 'serial' if busy <= 1 else 'parallel')] += 1


parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument('--runs', type=int, default=3)
parser.add_argument('command', nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ['--'] else args.command
period_ms = 0.25
totals = collections.Counter()
with tempfile.TemporaryDirectory() as tmp:
    data = os.path.join(tmp, 'perf.data')
    for _ in range(args.runs):
        # perf starts the command itself: its pid is the one perf forks, the first of the trace.
        subprocess.run(['perf', 'record', '-q', '-g', '-c', str(int(period_ms * 1e6)), '-e', 'sched:sched_switch',
                        '-e', 'sched:sched_wakeup', '-e', 'sched:sched_wakeup_new', '-e', 'cpu-clock', '-o', data,
                        '--', *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = subprocess.run(['perf', 'script', '-i', data], capture_output=True, text=True).stdout
        first = next(e for e in events(text) if e[2].startswith('cpu-clock'))
        replay(text, first[1], totals)
print(f'{"CPU ms per run (mean of %d)" % args.runs:34} {"serial":>8} {"parallel":>9}')
names = sorted({k[0] for k in totals}, key=lambda n: -totals[(n, 'serial')])
for name in names:
    print(f'{name:34} {totals[(name, "serial")] * period_ms / args.runs:8.1f} {totals[(name, "parallel")] * period_ms / args.runs:9.1f}')
serial = sum(v for k, v in totals.items() if k[1] == 'serial') * period_ms / args.runs
parallel = sum(v for k, v in totals.items() if k[1] == 'parallel') * period_ms / args.runs
print(f'{"total":34} {serial:8.1f} {parallel:9.1f}')
print(f'ideal wall on two idle cores ≈ serial + parallel / 2 = {serial + parallel / 2:.1f} ms')
