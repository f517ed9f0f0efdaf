// LottieImage: image shapes in the Lottie export, as Lottie's image assets — the PNG embedded
// as a data URI (`assets` entry with `e: 1`, its pixel size `w` × `h`), drawn by an image layer
// (ty 2) parented to a null layer (ty 3) that carries the shape's place, rotation, scale and
// anchor exactly as a rect's layer does (the box centred on the null's origin). The image
// layer stretches the picture into the box: its position is −size/2 and its scale
// size / pixel size, both affine in `size`, so a tweened size keeps exact keyframes. Lottie
// does not pass opacity down to children, so the image layer has the shape's alpha itself.
// Exported when every drawn shape's `z` is constant (one paint order throughout: an image
// layer has no group whose opacity can switch it between stacking slots); otherwise the
// images are left out with the command's warning. Shadows are left out as for every shape.

extension LottieExporter {
    /// The image shapes the export draws (see the header): all of them when no drawn shape's
    /// `z` changes, else none.
    static func exportedImages(_ timeline: Timeline, fps: Int) -> [ShapeID] {
        let images = timeline.shapes.filter { $0.kind == .image }
        guard !images.isEmpty else { return [] }
        let zFixed = timeline.shapes.allSatisfy { ChannelBuilder(timeline: timeline, shape: $0.id, fps: fps).isConstant(.z) }
        guard zFixed else { return [] }
        return images.compactMap { info in
            if case .success = StageImages.load(timeline.imageFile(of: info.id)) { return info.id }
            return nil
        }
    }

    /// The asset id of an image shape.
    static func assetID(_ id: ShapeID) -> String { "image_\(id.index)" }

    /// The asset entry of an image shape: its PNG as a data URI and its pixel size.
    static func imageAsset(_ timeline: Timeline, _ id: ShapeID) -> String? {
        let path = timeline.imageFile(of: id)
        guard case .success(let image) = StageImages.load(path) else { return nil }
        return "{\"id\":\"\(assetID(id))\",\"w\":\(image.width),\"h\":\(image.height),\"u\":\"\",\"p\":\"\(StageImages.dataURI(path))\",\"e\":1}"
    }
}

extension ChannelBuilder {
    /// The image layer and its null parent, top first, at indices `index` and `index + 1`.
    mutating func imageLayers(_ info: Timeline.ShapeInfo, index: Int, outPoint: Int, pixels: (w: Int, h: Int)) -> [String] {
        let start = firstTime()
        let ip = formatFixed(start.seconds * Double(fps), 4)
        let (position, anchor) = anchoredPosition(info.kind)
        let scale = channel(.scale, LottieChannelFormat(tolerance: 25 / max(1, reach(info)))) { v in let p = v.framePoint ?? Point(1, 1); return [p.x * 100, p.y * 100] }
        let rotation = channel(.rotation, Self.degrees) { [$0.frameNumber ?? 0] }
        let opacity = channel(.alpha, Self.percent) { [max(0, min(1, $0.frameNumber ?? 1)) * 100] }
        let pw = Double(max(1, pixels.w)), ph = Double(max(1, pixels.h))
        let corner = channel(.size, Self.pixels) { v in let p = v.framePoint ?? .zero; return [-abs(p.x) / 2, -abs(p.y) / 2, 0] }
        // 0.25 px at the far corner: a scale of s percent moves it by s / 100 × pixel size.
        let stretch = channel(.size, LottieChannelFormat(tolerance: 25 / max(pw, ph))) { v in
            let p = v.framePoint ?? .zero
            return [abs(p.x) / pw * 100, abs(p.y) / ph * 100]
        }
        let name = jsonString(info.name)
        let image = """
        {"ddd":0,"ind":\(index),"ty":2,"nm":\(name),"refId":"\(LottieExporter.assetID(info.id))","parent":\(index + 1),"sr":1,\
        "ks":{"o":\(opacity),"r":{"a":0,"k":0},"p":\(corner),"a":{"a":0,"k":[0,0,0]},"s":\(stretch)},"ao":0,\
        "ip":\(ip),"op":\(outPoint),"st":0,"bm":0}
        """
        let null = """
        {"ddd":0,"ind":\(index + 1),"ty":3,"nm":\(name),"sr":1,\
        "ks":{"o":{"a":0,"k":100},"r":\(rotation),"p":\(position),"a":\(anchor),"s":\(scale)},"ao":0,\
        "ip":\(ip),"op":\(outPoint),"st":0,"bm":0}
        """
        return [image, null]
    }
}
