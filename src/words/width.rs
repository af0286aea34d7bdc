//! Terminal cells a text takes, by Unicode's rules (East Asian Width, emoji presentation,
//! zero-width and combining characters) as the maintained `unicode-width` tables have them:
//! wide and fullwidth characters and emoji take two cells, combining marks and zero-width
//! characters none, everything else one; and [`one_line`], text made safe for one terminal
//! line (what is measured has been through it).

use unicode_width::UnicodeWidthStr;

/// Cells `text` takes in a terminal (no control characters or escapes in `text`).
pub fn cells(text: &str) -> usize {
    text.width()
}

/// The longest prefix of `text` that fits in `budget` cells, cut between characters. A
/// prefix never gets narrower as it grows, so the search stops at the first that is too wide.
pub fn prefix(text: &str, budget: usize) -> &str {
    let mut fits = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        if cells(&text[..end]) > budget {
            break;
        }
        fits = end;
    }
    &text[..fits]
}

/// The longest suffix of `text` that fits in `budget` cells, cut between characters (a
/// path keeps its file name).
pub fn suffix(text: &str, budget: usize) -> &str {
    let mut from = text.len();
    for (i, _) in text.char_indices().rev() {
        if cells(&text[i..]) > budget {
            break;
        }
        from = i;
    }
    &text[from..]
}

/// Text safe for one terminal line: control characters (escapes, newlines) and bidi
/// controls (which could reorder the rest of the line) removed.
pub fn one_line(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the marks
/// U+200E, U+200F, U+061C.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_keep_the_end_that_fits() {
        assert_eq!(suffix("src/billing/ledger.sql", 10), "ledger.sql");
        assert_eq!(suffix("修复登录", 5), "登录");
        assert_eq!(suffix("abc", 9), "abc");
        assert_eq!(suffix("abc", 0), "");
    }

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

    #[test]
    fn emoji_sequences_count_as_the_picture_they_show() {
        assert_eq!(cells("\u{2764}\u{fe0f}"), 2, "a heart in emoji presentation");
        assert_eq!(
            cells("\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}"),
            2,
            "a family, one picture"
        );
        let text = "ok \u{2764}\u{fe0f} \u{1f468}\u{200d}\u{1f469} 修复";
        for budget in 0..=cells(text) {
            let cut = prefix(text, budget);
            assert!(cells(cut) <= budget, "{budget}: {cut}");
            let next = text[cut.len()..]
                .chars()
                .next()
                .map_or(text.len(), |c| cut.len() + c.len_utf8());
            assert!(next == text.len() && cut.len() == text.len() || cells(&text[..next]) > budget);
        }
    }
}
