#!/usr/bin/env python3
"""Where a `stickers` process's instructions go, stage by stage, from a callgrind profile.

  scripts/stage_counts.py CALLGRIND.OUT [CALLGRIND.OUT…]     one column per profile

Each function's own (exclusive) instruction count is given to the stage its name says (the
patterns below, first match wins), so the stages add up to the whole process; what no pattern
names — the allocator, retain/release, copies, the task scheduler — is "other". Swift's async
functions are split into pieces that callgrind charges to the executor, so inclusive counts of
async stages overlap or fall short; exclusive counts by name do not. Two rows are inclusive counts
of one synchronous call each instead, because their work is spread over runtime functions that
other stages use too: argument parsing (ArgumentParser's entry point, or the palette's plain
reading) and the model's loading (`CutOutModel.load`: record check, ONNX parse, weights prepared).
Made by scripts/stage_counts.sh; figures in docs/benchmarks.md.
"""
import re
import subprocess
import sys

# (stage, regular expression on "function [object]"), first match wins.
STAGES = [
    ("process start: dynamic linking (ld.so)", r"\[/usr/lib/x86_64-linux-gnu/ld-linux|^\./elf/"),
    ("protocol-conformance scans (runtime)", r"conformsToProtocol|ConformanceCandidate|_checkGenericRequirements"),
    ("type metadata by mangled name (runtime)", r"Demangle|TypeDecoder|MetadataBuilder|getTypeByMangled|_gatherGenericParameters|swift_getGenericMetadata|MetadataCache"),
    ("JPEG decode", r"libjpeg|ImageDecoder|sic_jpeg|reorient"),
    ("network (convolutions, tensors)", r"winograd|Winograd|Convolution|resizedRow|narrowTapSums|convolveEightChannels|Tensor|InferenceSession|NeuralNet|pooled|Pool|sigmoid|__expf|inputTensor|transformFilter|Upsample|Concat"),
    ("refinement at full resolution", r"BoxFilter|GuidedFilter|ForegroundEstimator|FullResolution|ColorPlanes|Plane\.resized|Image\.resized|resampled|Resampl|reducedRows"),
    ("subject regions and clean-up", r"SubjectRegions|SaliencyCleanup|ConnectedComponents|PhotoSubjects|SubjectPresence|Mask\.bounds|BorderContrast|UpsideDown|SubjectExtractor|Saliency"),
    ("sticker style (outline)", r"DistanceTransform|StickerRenderer|StickerStyle|PuffyEffect|ComicEffect"),
    ("gradient picture", r"GradientSticker"),
    ("colours (palette)", r"ColorExtractor|ColorHistogram|WeightedKMeans|ColorNames|CIELab|DistinctColors|MoodSelection|deltaE|OKLab|Oklab|__cos|__sin|__ieee754_pow|atan2|PaletteFormat|JSONPalette|PhotoColorScheme"),
    ("PNG encode", r"libpng|libz\.so|write_block|tokenize|paeth|deflate|adler32|crc32|ImageEncoder|png_|filter_row|sub_filter|up_filter|avg_filter"),
    ("pack and library (ZIP, JSON, SQLite)", r"ZIPFoundation|Archive|JSONEncoder|JSONWriter|GRDB|sqlite|StickerPack|Database|Statement"),
]
INCLUSIVE = [
    ("argument parsing (inclusive)", r"asyncParseAsRoot|PalettePlainArguments\.command"),
    ("model load (inclusive)", r"static CutOutModel\.load\("),
]
LINE = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+(.*)$")


def annotate(path, inclusive):
    args = ["callgrind_annotate", "--threshold=100"] + (["--inclusive=yes"] if inclusive else []) + [path]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["swift-demangle", "--simplified"], input=text, capture_output=True, text=True).stdout
    total, rows = 0, []
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        n, name = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in name:
            total = n
        else:
            rows.append((n, name))
    return total, rows


def stages(path):
    total, own = annotate(path, inclusive=False)
    counts = {stage: 0 for stage, _ in STAGES}
    counts["other (allocation, copies, retain/release, scheduling)"] = 0
    for n, name in own:
        for stage, pattern in STAGES:
            if re.search(pattern, name):
                counts[stage] += n
                break
        else:
            counts["other (allocation, copies, retain/release, scheduling)"] += n
    _, incl = annotate(path, inclusive=True)
    for stage, pattern in INCLUSIVE:
        counts[stage] = max([n for n, name in incl if re.search(pattern, name)] or [0])
    return total, counts


def main():
    paths = sys.argv[1:]
    if not paths:
        sys.exit(__doc__)
    columns = [stages(p) for p in paths]
    names = list(columns[0][1])
    print("| stage | " + " | ".join(paths) + " |")
    print("|---|" + "---:|" * len(paths))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{c[name] / 1e6:,.1f} M" for _, c in columns) + " |")
    print("| **whole process** | " + " | ".join(f"**{t / 1e6:,.1f} M**" for t, _ in columns) + " |")


if __name__ == "__main__":
    main()
