//! Terminal cells a text takes: East Asian Wide and Fullwidth characters and emoji take two,
//! combining marks and zero-width characters none, everything else one. Compact rather than
//! exact: where terminals disagree it errs wide, so a line measured here never overflows.

/// Cells `text` takes in a terminal (no escape sequences in `text`).
pub fn cells(text: &str) -> usize {
    text.chars().map(char_cells).sum()
}

/// The longest prefix of `text` that fits in `budget` cells.
pub fn prefix(text: &str, budget: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += char_cells(c);
        if used > budget {
            return &text[..i];
        }
    }
    text
}

/// Cells one character takes.
pub fn char_cells(c: char) -> usize {
    let cp = u32::from(c);
    if cp < 0x300 {
        return usize::from(!c.is_control());
    }
    if ZERO.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp)) {
        0
    } else if WIDE.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp)) {
        2
    } else {
        usize::from(!c.is_control())
    }
}

/// Combining marks and zero-width characters (variation selector 16 is left at one cell:
/// it can widen the symbol before it).
const ZERO: &[(u32, u32)] = &[
    (0x0300, 0x036F),
    (0x0483, 0x0489),
    (0x0591, 0x05BD),
    (0x0610, 0x061A),
    (0x064B, 0x065F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2069),
    (0x20D0, 0x20FF),
    (0xFE00, 0xFE0E),
    (0xFE20, 0xFE2F),
    (0xFEFF, 0xFEFF),
    (0xE0000, 0xE007F),
];

/// East Asian Wide (W) and Fullwidth (F) blocks, and emoji shown as pictures.
const WIDE: &[(u32, u32)] = &[
    (0x1100, 0x115F),
    (0x231A, 0x231B),
    (0x2329, 0x232A),
    (0x23E9, 0x23EC),
    (0x23F0, 0x23F0),
    (0x23F3, 0x23F3),
    (0x25FD, 0x25FE),
    (0x2614, 0x2615),
    (0x2648, 0x2653),
    (0x267F, 0x267F),
    (0x2693, 0x2693),
    (0x26A1, 0x26A1),
    (0x26AA, 0x26AB),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26CE, 0x26CE),
    (0x26D4, 0x26D4),
    (0x26EA, 0x26EA),
    (0x26F2, 0x26F3),
    (0x26F5, 0x26F5),
    (0x26FA, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2705, 0x2705),
    (0x270A, 0x270B),
    (0x2728, 0x2728),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2795, 0x2797),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
    (0x2E80, 0x303E),
    (0x3041, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA000, 0xA4CF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7A3),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE19),
    (0xFE30, 0xFE6F),
    (0xFF00, 0xFF60),
    (0xFFE0, 0xFFE6),
    (0x16FE0, 0x16FE4),
    (0x17000, 0x18CFF),
    (0x1B000, 0x1B2FF),
    (0x1F004, 0x1F004),
    (0x1F0CF, 0x1F0CF),
    (0x1F18E, 0x1F18E),
    (0x1F191, 0x1F19A),
    (0x1F1E6, 0x1F1FF),
    (0x1F200, 0x1F251),
    (0x1F300, 0x1F64F),
    (0x1F680, 0x1F6FF),
    (0x1F7E0, 0x1F7EB),
    (0x1F90C, 0x1F9FF),
    (0x1FA70, 0x1FAFF),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_scripts_and_emoji_take_two_cells() {
        assert_eq!(cells("Sonnet 4.5 │ █░ …"), 17);
        assert_eq!(cells("修复登录错误"), 12);
        assert_eq!(cells("ｆｕｌｌ"), 8);
        assert_eq!(cells("한국어"), 6);
        assert_eq!(cells("🚀 ok ✅"), 8);
        assert_eq!(cells("e\u{301}"), 1, "a combining accent sits on its letter");
        assert_eq!(cells("a\u{200b}b"), 2);
    }

    #[test]
    fn prefixes_cut_on_cells_never_inside_a_character() {
        assert_eq!(prefix("修复登录", 5), "修复");
        assert_eq!(prefix("修复登录", 4), "修复");
        assert_eq!(prefix("ab修", 3), "ab");
        assert_eq!(prefix("abc", 10), "abc");
        assert_eq!(prefix("修", 1), "");
    }
}
