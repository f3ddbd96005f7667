import Raster

/// Names a colour after the nearest of the xkcd colour survey's 949 named colours, by CIEDE2000.
///
/// The survey's names are what people call colours ("dusty rose", "teal"), not a designer's
/// catalogue, which is what a palette's reader wants; the list is public domain (CC0, see NOTICE)
/// and generated into ColorNameList.swift by scripts/make_color_names.py.
public enum ColorNames {
    /// The named colours with their CIELAB coordinates, parsed once.
    private static let entries: [(name: String, lab: CIELab)] = list.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: ";")
        guard fields.count == 2, let value = UInt32(fields[1], radix: 16) else { return nil }
        let lab = CIELab(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        return (String(fields[0]), lab)
    }

    /// How many named colours there are to choose from.
    public static var count: Int { entries.count }

    /// The name of the named colour nearest `color` (ties: the first by name).
    public static func name(of color: PaletteColor) -> String {
        let lab = CIELab(red: color.red, green: color.green, blue: color.blue)
        var best = (name: "", distance: Double.infinity)
        for entry in entries {
            let distance = lab.deltaE2000(to: entry.lab)
            if distance < best.distance { best = (entry.name, distance) }
        }
        return best.name
    }
}
