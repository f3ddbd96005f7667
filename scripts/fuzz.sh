#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the code that reads untrusted bytes.
#
#   scripts/fuzz.sh TARGET SECONDS     build TARGET and fuzz it for SECONDS
#   scripts/fuzz.sh all SECONDS        each target in turn, SECONDS each
#   scripts/fuzz.sh list               the targets
#
# Targets: jpeg, png, webp (Raster's decoders, the libjpeg-turbo/libpng shims and the libwebp
# binding), exif (our EXIF orientation parser), onnx (the ONNX/protobuf reader and graph planner),
# multipart (the web app's form parser), apod (the APOD JSON decoding), palette (StickerKit's
# palette readers: aco, ase, procreate swatches through ZIPFoundation, and the text formats),
# animation (a GIF's block walk and an APNG's chunk walk that read a clip's timing and ends).
#
# Each target is compiled straight from the module's sources with `swiftc -sanitize=fuzzer,address`
# (SwiftPM cannot build a libFuzzer binary: it has no main of its own). The seeds in
# Tests/Fuzz/corpus/TARGET are committed; what the fuzzer finds grows a working corpus under
# .build-fuzz/ instead. A crash leaves its input in .build-fuzz/crashes/TARGET-* and the script
# exits 1: add that input to the target's tests as a regression test once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build-fuzz
targets=(jpeg png webp exif onnx multipart apod palette animation)

if [ "${1:-}" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS   (targets: ${targets[*]})" >&2
    exit 64
fi
if [ "$1" = all ]; then
    status=0
    for target in "${targets[@]}"; do "$0" "$target" "$2" || status=1; done
    exit $status
fi
target=$1 seconds=$2
case " ${targets[*]} " in *" $target "*) ;; *) echo "unknown target $target (${targets[*]})" >&2; exit 64 ;; esac

bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
clang=$bin/clang
swift_flags=(-swift-version 6 -parse-as-library -O -g -sanitize=fuzzer,address
             -enable-upcoming-feature NonisolatedNonsendingByDefault
             -enable-upcoming-feature InferIsolatedConformances)
mkdir -p "$out/obj" "$out/crashes" "$out/corpus/$target"

# CPUID for choosing kernels (CImageCodecs and NeuralNet call it), with a module map for Swift.
cpu_features_object() {
    local o=$out/obj/cpu_features.o
    if [ ! -f "$o" ] || [ Sources/CCPUFeatures/cpu_features.c -nt "$o" ]; then
        "$clang" -c -O1 -g -ISources/CCPUFeatures/include Sources/CCPUFeatures/cpu_features.c -o "$o"
    fi
    cat > "$out/obj/CCPUFeatures.modulemap" <<EOF
module CCPUFeatures {
    header "$root/Sources/CCPUFeatures/include/cpu_features.h"
    export *
}
EOF
    echo "$o"
}

# The C shims, instrumented like the Swift code, and a module map so Swift can import them.
codec_objects() {
    local cflags
    cflags="$(pkg-config --cflags libpng libjpeg) -ISources/CCPUFeatures/include"
    cpu_features_object
    for c in Sources/CImageCodecs/*.c; do
        local o=$out/obj/$(basename "$c" .c).o
        if [ ! -f "$o" ] || [ "$c" -nt "$o" ]; then
            # shellcheck disable=SC2086
            "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -ISources/CImageCodecs/include $cflags "$c" -o "$o"
        fi
        echo "$o"
    done
    cat > "$out/obj/module.modulemap" <<EOF
module CImageCodecs {
    header "$root/Sources/CImageCodecs/include/image_codecs.h"
    export *
}
EOF
}

# A plain Swift module a target imports (compiled once, into $out/obj); further arguments are
# extra compiler flags.
swift_module() {
    local name=$1 dir=$2
    shift 2
    mapfile -t files < <(find "$dir" -name '*.swift' | sort)
    if [ ! -f "$out/obj/$name.o" ] || [ -n "$(find "$dir" -newer "$out/obj/$name.o" -print -quit)" ]; then
        swiftc "${swift_flags[@]}" "$@" -module-name "$name" -emit-module -emit-module-path "$out/obj/$name.swiftmodule" \
            -emit-object -wmo -o "$out/obj/$name.o" "${files[@]}" >&2
    fi
    echo "$out/obj/$name.o"
}

# libwebp's run-time binding (Raster decodes WebP through it), instrumented, with its module map.
lazy_webp_object() {
    local o=$out/obj/lazy_webp.o
    if [ ! -f "$o" ] || [ Sources/CLazyWebP/lazy_webp.c -nt "$o" ]; then
        "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address -ISources/CLazyWebP/include Sources/CLazyWebP/lazy_webp.c -o "$o"
    fi
    printf 'module CLazyWebP {\n    header "%s/Sources/CLazyWebP/include/lazy_webp.h"\n    export *\n}\n' "$root" \
        > "$out/obj/CLazyWebP.modulemap"
    echo "$o"
}

# Raster, compiled once as a module (testable: the EXIF target calls an internal parser) and shared
# by the targets that decode images or name colours; sets raster_flags (what linking it needs).
raster_module() {
    mapfile -t objects < <(codec_objects)
    objects+=("$(lazy_webp_object)" "$(swift_module BoundedConcurrency Sources/BoundedConcurrency)")
    maps=(-Xcc -fmodule-map-file="$out/obj/module.modulemap" -Xcc -fmodule-map-file="$out/obj/CLazyWebP.modulemap")
    mapfile -t raster < <(find Sources/Raster -name '*.swift' | sort)
    if [ ! -f "$out/obj/Raster.o" ] || [ -n "$(find Sources/Raster Sources/CImageCodecs Sources/CLazyWebP Sources/BoundedConcurrency -newer "$out/obj/Raster.o" -print -quit)" ]; then
        echo "== building Raster for fuzzing"
        swiftc "${swift_flags[@]}" -enable-testing -module-name Raster -emit-module -emit-module-path "$out/obj/Raster.swiftmodule" \
            -emit-object -wmo -o "$out/obj/Raster.o" -I "$out/obj" "${maps[@]}" "${raster[@]}"
    fi
    # shellcheck disable=SC2207
    raster_flags=(-I "$out/obj" "${maps[@]}" "$out/obj/Raster.o" "${objects[@]}"
                  $(pkg-config --libs libpng libjpeg) -lz -ldl)
}

sources=() extra=()
case $target in
    jpeg|png|webp|exif)
        raster_module
        sources=(Tests/Fuzz/Targets/decode_every_way.swift)
        extra=("${raster_flags[@]}")
        ;;
    palette)
        # The readers with what they call (colour names, contrast), straight from StickerKit's
        # sources; ZIPFoundation (the package's checkout) reads the procreate ZIP, instrumented too.
        raster_module
        zip=.build/checkouts/ZIPFoundation
        [ -d "$zip" ] || swift package resolve
        zip_map=(-Xcc -fmodule-map-file="$root/$zip/Sources/CZLib/module.modulemap")
        extra=("${raster_flags[@]}" "${zip_map[@]}"
               "$(swift_module ZIPFoundation "$zip/Sources/ZIPFoundation" -swift-version 5 "${zip_map[@]}" -Xcc -D_GNU_SOURCE=1)")
        mapfile -t sources < <(find Sources/StickerKit/PaletteFormats -name '*.swift' | sort)
        sources+=(Sources/StickerKit/PhotoColorScheme.swift Sources/StickerKit/Colors/ColorNames.swift
                  Sources/StickerKit/Colors/ColorNameList.swift Sources/StickerKit/Colors/ContrastRatio.swift)
        ;;
    onnx)
        # The kernel modules NeuralNet imports are compiled as plain modules first (no CPU-specific
        # flags: the planner never runs a kernel); the portable one first, since the others import
        # it (for the types the kernels share).
        # NeuralNetBF16 is C: compiled as an object with a module map of its own (like CCPUFeatures).
        if [ -d Sources/NeuralNetBF16 ]; then
            "$clang" -c -O1 -g -ISources/NeuralNetBF16/include \
                Sources/NeuralNetBF16/winograd_bf16.c -o "$out/obj/winograd_bf16.o"
            printf 'module NeuralNetBF16 {\n    header "%s"\n    export *\n}\n' \
                "$root/Sources/NeuralNetBF16/include/neuralnet_bf16.h" > "$out/obj/NeuralNetBF16.modulemap"
            extra+=("$out/obj/winograd_bf16.o" -Xcc -fmodule-map-file="$out/obj/NeuralNetBF16.modulemap")
        fi
        for name in NeuralNetPortable $(cd Sources && ls -d NeuralNet[A-Z]* | grep -vE '^(NeuralNetPortable|NeuralNetBF16)$'); do
            mapfile -t kernel < <(find "Sources/$name" -name '*.swift' | sort)
            # The define Package.swift gives the AVX2 module (its files are the portable ones, linked).
            defines=(); [ "$name" = NeuralNetAVX2 ] && defines=(-D NEURALNET_AVX2)
            swiftc "${swift_flags[@]}" "${defines[@]}" -module-name "$name" -emit-module -emit-module-path "$out/obj/$name.swiftmodule" \
                -I "$out/obj" -emit-object -wmo -o "$out/obj/$name.o" "${kernel[@]}"
            extra+=("$out/obj/$name.o")
        done
        extra+=(-I "$out/obj" "$(cpu_features_object)" -Xcc -fmodule-map-file="$out/obj/CCPUFeatures.modulemap")
        mapfile -t sources < <(find Sources/NeuralNet -name '*.swift' | sort)
        ;;
    animation)
        raster_module
        extra=("${raster_flags[@]}")
        sources=(Sources/StickerKit/Clip/AnimatedImageTimeline.swift Sources/StickerKit/Clip/ClipDetection.swift)
        ;;
    multipart) sources=(Sources/StickerWeb/Server/MultipartForm.swift) ;;
    apod) sources=(Sources/SpacePhotos/SpacePhoto.swift Sources/SpacePhotos/SpacePhotoPage.swift
                   Sources/SpacePhotos/APODError.swift Sources/SpacePhotos/APODDay.swift) ;;
esac

binary=$out/fuzz-$target
echo "== building $binary"
swiftc "${swift_flags[@]}" -module-name "Fuzz_$target" -o "$binary" \
    "${sources[@]}" "Tests/Fuzz/Targets/$target.swift" "${extra[@]}" 2>&1 \
    | grep -vE "Cannot export local symbol|^$" || true
[ -x "$binary" ] || { echo "build of $target failed" >&2; exit 1; }

log=$out/fuzz-$target.log
echo "== fuzzing $target for ${seconds}s (log: $log)"
set +e
# libFuzzer's own report names a Swift trap ("Swift runtime failure: …"); Swift's backtracer on
# top of it can hang under ASan.
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$target-" "$out/corpus/$target" "Tests/Fuzz/corpus/$target" > "$log" 2>&1
status=$?
set -e
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
echo "$target: ${runs:-?} executions in ${seconds}s, ${coverage:-cov: ?}, corpus $(ls "$out/corpus/$target" | wc -l) inputs, exit $status"
if [ $status -ne 0 ]; then
    grep -E 'ERROR: |SUMMARY: |Test unit written' "$log" | head -5
    exit 1
fi
