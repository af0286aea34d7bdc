//! Service classes from one file's hits: a `service.name` is a service (hits naming the same
//! one, such as a Rust type's impl blocks, are one), a `service.method` in its hit is one of
//! its methods, unless a `service.private` captures the same name (a private or protected
//! method, an accessor).

use std::ops::Range;

use super::hits::Hit;
use crate::bridge::facts::Service;

/// The services of one file's hits, in the file's order, their methods in theirs.
pub fn services(path: &str, hits: &[Hit<'_>]) -> Vec<Service> {
    let private: Vec<&Range<usize>> = hits
        .iter()
        .flat_map(|hit| hit.all("service.private"))
        .map(|capture| &capture.range)
        .collect();
    let mut found: Vec<(Service, Vec<(usize, String)>)> = Vec::new();
    for hit in hits {
        let Some(name) = hit.text("service.name") else { continue };
        let at = match found.iter().position(|(have, _)| have.name == name) {
            Some(at) => at,
            None => {
                let service = Service {
                    name: name.to_owned(),
                    methods: Vec::new(),
                    file: path.to_owned(),
                };
                found.push((service, Vec::new()));
                found.len() - 1
            }
        };
        let Some((_, methods)) = found.get_mut(at) else {
            continue;
        };
        for method in hit.all("service.method") {
            if !private.contains(&&method.range) && !methods.iter().any(|(start, _)| *start == method.range.start) {
                methods.push((method.range.start, method.text.to_owned()));
            }
        }
    }
    found
        .into_iter()
        .map(|(mut service, mut methods)| {
            methods.sort_by_key(|(start, _)| *start);
            service.methods = methods.into_iter().map(|(_, name)| name).collect();
            service
        })
        .collect()
}
