/// Names for a scheme's colours where a format has names or identifiers.
enum PaletteNames {
    /// Each colour's nearest named colour.
    static func names(_ colors: [PaletteColor]) -> [String] {
        colors.map(ColorNames.name(of:))
    }

    /// Identifiers for variables and object keys: the colour's name in lower-case words joined by
    /// `-` ("dusty rose" → "dusty-rose"), `-2`, `-3`… when two colours share a name, and a
    /// `color-` prefix where a name would not start with a letter.
    static func identifiers(_ colors: [PaletteColor]) -> [String] {
        var used: [String: Int] = [:]
        return names(colors).map { name in
            var slug = ""
            for character in name.lowercased() {
                if character.isASCII, character.isLetter || character.isNumber {
                    slug.append(character)
                } else if !slug.isEmpty, slug.last != "-" {
                    slug.append("-")
                }
            }
            while slug.last == "-" { slug.removeLast() }
            if !(slug.first?.isLetter ?? false) { slug = "color-" + slug }
            used[slug, default: 0] += 1
            return used[slug] == 1 ? slug : "\(slug)-\(used[slug] ?? 0)"
        }
    }
}
