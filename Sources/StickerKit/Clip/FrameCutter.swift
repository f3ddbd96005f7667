import Raster

extension ClipSubjectTracker {
    /// The second pass: each frame cut out along its look, refined against its own pixels as the
    /// photo pipeline does (guided filter, edge colours) and, where the background plate is known,
    /// corrected with it (`PlateMatte`). A value: frames are cut out in parallel, in any order.
    struct FrameCutter: Sendable {
        let extractor: SubjectExtractor
        /// The first frame's scenery (`start`), at the saliency's size.
        let scenery: Plane?
        var plate: BackgroundPlate?
        let matte: PlateMatte
        let subjectReach: Int
        /// `Settings.edgeSteepness` (1 here: a cutter built apart from the tracker, in tests, cuts as refined).
        var edgeSteepness: Float = 1
        /// The largest share of the frame the followed subject covers in any look of the clip
        /// (`PlateMatte.restored` measures the subject by it, up to a quarter over the frame's
        /// own: d02's spade, 15 % smaller in the first frames where the network missed its
        /// handle, could not take the handle back).
        var largestSubject: Float = 0
        /// The subject is what differs from the plate (`MotionSubject`), not the look's saliency,
        /// nor from what the frame holds still (`MotionSubject.still`, at the working size).
        var byMotion: MotionSubject?
        var stillInFrame: ColorPlanes?

        /// `alpha` steepened about ½ by `factor` (`Settings.edgeSteepness`), clamped to 0…1, where it
        /// is still `unsolved`'s (nil: everywhere): an alpha the compositing equation solved is the
        /// edge's own mix, a soft one (fur) included, and stays.
        static func steepened(_ alpha: [Float], by factor: Float, unsolved: [Float]? = nil) -> [Float] {
            guard factor != 1 else { return alpha }
            var out = alpha
            for i in out.indices where unsolved.map({ $0[i] == alpha[i] }) ?? true {
                out[i] = min(1, max(0, (alpha[i] - 0.5) * factor + 0.5))
            }
            return out
        }

        /// The frame at the size its alpha is refined at.
        func working(_ frame: Image) async -> ColorPlanes {
            let refinement = extractor.refinement
            let factor = max(1, (max(frame.width, frame.height) + refinement.workingDimension - 1) / refinement.workingDimension)
            return await ColorPlanes.reduced(frame, factor: factor, bands: extractor.bands)
        }

        /// The subject of a look without the scenery the background carried there (saliency's size).
        private func subject(of look: Look) -> Plane {
            var plane = look.saliencyPlane
            if let zone = ClipSubjectTracker.scenery(scenery, at: look.offset, width: plane.width, height: plane.height) {
                for i in plane.values.indices where zone.values[i] > 0.5 { plane.values[i] = 0 }
            }
            return plane
        }

        /// Where the subject may be in the working frame: its saliency above 0.1, grown.
        private func subjectZone(_ subject: Plane, width: Int, height: Int) -> [Bool] {
            let resized = subject.resized(width: width, height: height, filter: .bilinear)
            return ClipSubjectTracker.grown(Plane(width: width, height: height, values: resized.values.map { $0 > 0.1 ? 1 : 0 }),
                                            by: subjectReach)
        }

        /// A frame kept for the plate (first pass): its working pixels, its background's offset in
        /// working pixels, and where its subject may be. nil when the background is not followed.
        func plateSample(_ frame: Image, look: Look) async -> BackgroundPlate.Sample? {
            guard let offset = look.offset else { return nil }
            let work = await working(frame)
            return BackgroundPlate.Sample(frame: work, offset: offset * SIMD2(Float(work.width), Float(work.height)),
                                          subject: subjectZone(subject(of: look), width: work.width, height: work.height))
        }

        /// The frame cut out along its look.
        func cut(_ frame: Image, look: Look) async -> FrameCutOut {
            let refinement = extractor.refinement, bands = extractor.bands
            var saliency = look.saliencyPlane
            let work = await working(frame)
            let factor = max(1, (max(frame.width, frame.height) + refinement.workingDimension - 1) / refinement.workingDimension)
            // A subject found by its motion: its pixels at the working size are the saliency.
            let moving = byMotion.flatMap { motion in
                plate.flatMap { plate in
                    look.offset.flatMap {
                        motion.pixels(in: work, plate: plate, near: $0 * SIMD2(Float(work.width), Float(work.height)), matte: matte,
                                      still: stillInFrame)
                    }
                }
            }
            if byMotion != nil {
                guard let moving else {
                    return FrameCutOut(index: look.index, image: Image(width: frame.width, height: frame.height),
                                       alpha: Mask(width: frame.width, height: frame.height), unplaced: true)
                }
                saliency = Plane(width: work.width, height: work.height, values: moving.map { $0 ? 1 : 0 })
            }
            let magnification = max(Float(work.width) / Float(saliency.width), Float(work.height) / Float(saliency.height))
            let radius = max(1, Int((magnification * refinement.radiusInSaliencyPixels).rounded()))
            let coarse = byMotion != nil ? saliency : saliency.resized(width: work.width, height: work.height, filter: .area)
            let filtered = await GuidedFilter(radius: radius, epsilon: refinement.epsilon).apply(guide: work, input: coarse.values)
            let span = max(1e-3, refinement.high - refinement.low)
            var alpha = filtered.map { min(1, max(0, ($0 - refinement.low) / span)) }

            // The plate as this frame sees it, placed to an eighth of a pixel against the frame itself.
            var seen: (color: ColorPlanes, known: [Bool], noise: Float, residual: [Float], showsPlate: [Bool])?, fading: [Float]?
            if let plate, let offset = look.offset {
                let subject = byMotion == nil ? subject(of: look) : saliency
                let zone = subjectZone(subject, width: work.width, height: work.height)
                let placed = plate.align(work, exclude: zone, near: offset * SIMD2(Float(work.width), Float(work.height)))
                let background = plate.background(at: placed, width: work.width, height: work.height)
                let followed = subject.resized(width: work.width, height: work.height, filter: .bilinear).values.map { $0 > 0.5 }
                if let removed = matte.removing(alpha: alpha, image: work, background: background.color, known: background.known,
                                                subject: followed,
                                                subjectArea: Int(largestSubject * Float(work.width * work.height))) {
                    alpha = removed.alpha
                    seen = (background.color, background.known, removed.noise, removed.residual, removed.showsPlate)
                    fading = removed.fading
                }
            }
            let unsolved = alpha
            var colors = await ForegroundEstimator(radii: [max(2, radius * 3), max(1, radius / 3)]).estimate(image: work, alpha: alpha)
            if let seen {
                alpha = matte.composited(alpha: alpha, image: work, foreground: colors.foreground, background: seen.color,
                                         known: seen.known, noise: seen.noise, residual: seen.residual)
                // The edge colours are unmixed from the true background where the plate knows it.
                for i in seen.known.indices where seen.known[i] {
                    colors.background.red[i] = seen.color.red[i]
                    colors.background.green[i] = seen.color.green[i]
                    colors.background.blue[i] = seen.color.blue[i]
                }
            }
            // Where the plate does not know the background: B from the smooth background nearby.
            alpha = matte.locallyComposited(alpha: alpha, image: work, foreground: colors.foreground, skip: seen?.known)
            alpha = Self.steepened(alpha, by: edgeSteepness, unsolved: unsolved)
            // Pixels near the clearing's tolerance fade rather than flip from frame to frame.
            alpha = PlateMatte.faded(alpha, by: fading)
            // Last, on the final alpha: a fade or a steepening would bring a filled dip's ring back.
            if let seen {
                alpha = matte.filled(alpha, showsPlate: seen.showsPlate, known: seen.known, residual: seen.residual, image: work, noise: seen.noise)
            }
            let full = FullResolution(image: frame, alpha: Plane(width: work.width, height: work.height, values: alpha), factor: factor)
            let mask = await full.mask(bands: bands)
            var canvas = Image(width: frame.width, height: frame.height)
            if let box = mask.bounds {
                let cut = await full.cutOut(mask: mask, in: box, colors: colors, bands: bands)
                canvas.pixels.withUnsafeMutableBufferPointer { out in
                    cut.pixels.withUnsafeBufferPointer { source in
                        for y in 0..<box.height {
                            let from = y * box.width * 4, to = ((box.y + y) * frame.width + box.x) * 4
                            for i in 0..<(box.width * 4) { out[to + i] = source[from + i] }
                        }
                    }
                }
            }
            return FrameCutOut(index: look.index, image: canvas, alpha: mask)
        }
    }
}
