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

#[cfg(test)]
mod tests {
    use crate::bridge::source::Source;

    fn methods(path: &str, text: &str) -> Vec<String> {
        crate::bridge::rules::extract(&[Source { path, text }])
            .services
            .iter()
            .map(|service| format!("{}: {}", service.name, service.methods.join(", ")))
            .collect()
    }

    #[test]
    fn only_public_methods_of_exported_typescript_services() {
        let text = "export class MailService {\n\
              constructor(private readonly smtp: Smtp) {}\n\
              async send(to: string) {}\n\
              public queue() {}\n\
              private render() {}\n\
              protected audit() {}\n\
              get ready() { return true; }\n\
              #secret() {}\n\
            }\n\
            class LocalService { run() {} }\n";
        assert_eq!(methods("src/mail.service.ts", text), ["MailService: send, queue"]);
    }

    #[test]
    fn rust_impls_of_one_type_are_one_service_and_trait_impls_are_not_read() {
        let text = "impl LedgerService { pub fn open(&self) {} fn hidden(&self) {} }\n\
            impl Default for LedgerService { fn default() -> Self { Self::open_new() } }\n\
            impl<T> LedgerService<T> { pub(crate) fn close(&self) {} }\n";
        assert_eq!(methods("src/ledger.rs", text), ["LedgerService: open, close"]);
    }
}
