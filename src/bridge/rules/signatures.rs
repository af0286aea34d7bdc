//! Rust handler signatures (`handler.*` captures): the `Json<T>` a function takes (its
//! request) and returns (its response), and the plain types of its parameters (extractors,
//! guards when they are auth ones); linking matches them to routes by the handler's name.
//! And the extractors a file defines (`extractor.*`) that are guards.

use std::collections::HashSet;
use std::ops::Range;

use super::hits::{Capture, Hit};
use super::scopes::placed_in;
use crate::bridge::code_model::guards::{GuardNote, Role, is_auth_name};
use crate::bridge::code_model::routes::HandlerShapes;

/// The signatures of the file's functions that take or return `Json<T>` or take a parameter
/// of a plain type.
pub fn of_file(path: &str, hits: &[Hit<'_>]) -> Vec<HandlerShapes> {
    let mut json: Vec<&Capture<'_>> = hits.iter().filter_map(|hit| hit.get("handler.json")).collect();
    json.sort_by_key(|capture| capture.range.start);
    let mut extractors: Vec<&Capture<'_>> = hits.iter().filter_map(|hit| hit.get("handler.extractor")).collect();
    extractors.sort_by_key(|capture| capture.range.start);
    extractors.dedup_by_key(|capture| capture.range.start);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for hit in hits {
        let (Some(name), Some(params)) = (hit.get("handler.name"), hit.get("handler.params")) else {
            continue;
        };
        // Rules that share the pattern find a function once each.
        if !seen.insert(name.range.start) {
            continue;
        }
        let first = |within: &Range<usize>| {
            placed_in(&json, within, |capture| &capture.range)
                .next()
                .map(|capture| capture.text.trim().to_owned())
        };
        let request = first(&params.range);
        let response = hit.get("handler.returns").and_then(|returns| first(&returns.range));
        let extractors: Vec<String> = placed_in(&extractors, &params.range, |capture| &capture.range)
            .map(|kind| kind.text.rsplit("::").next().unwrap_or(kind.text).trim().to_owned())
            .collect();
        if request.is_some() || response.is_some() || !extractors.is_empty() {
            out.push(HandlerShapes {
                name: name.text.to_owned(),
                request,
                response,
                extractors,
                file: path.to_owned(),
            });
        }
    }
    out
}

/// The extractors the file defines (`impl FromRequestParts for AuthUser`) that reject an
/// unauthenticated request: named for auth, or rejecting with an auth error.
pub fn extractors(path: &str, hits: &[Hit<'_>]) -> Vec<GuardNote> {
    let mut rejects: Vec<&Capture<'_>> = hits.iter().filter_map(|hit| hit.get("extractor.rejects")).collect();
    let rejections = hits.iter().filter_map(|hit| hit.get("extractor.rejection"));
    rejects.extend(rejections.filter(|rejection| is_auth_name(rejection.text)));
    rejects.sort_by_key(|capture| capture.range.start);
    let mut out: Vec<GuardNote> = Vec::new();
    for hit in hits {
        let (Some(name), Some(scope)) = (hit.text("extractor.name"), hit.get("extractor.scope")) else {
            continue;
        };
        let rejecting = placed_in(&rejects, &scope.range, |capture| &capture.range)
            .next()
            .is_some();
        if (is_auth_name(name) || rejecting) && !out.iter().any(|note| note.name == name) {
            out.push(GuardNote::new(name, "extractor", hit.framework(), Role::Defined, path));
        }
    }
    out
}
