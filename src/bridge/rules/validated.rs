//! Constraints a `@MappedSuperclass` lends: its fields' constraints hold on every entity that
//! extends it (petclinic's `Pet extends NamedEntity`, whose `name` is `@NotBlank`), wherever
//! those are written. The superclass itself is no shape and no validation of its own; an
//! entity below it is a validation where a handler binds it with `@Valid`.

use std::collections::HashMap;

use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::facts::{Facts, Guard};

/// The kind the rules give a mapped superclass's shape.
const MAPPED_SUPERCLASS: &str = "mapped-superclass";

/// Deepest chain of superclasses followed.
const MAX_DEPTH: usize = 16;

/// Moves the validation of mapped superclasses to the tables' models that extend them and
/// that `bound` names; `parents` maps a class to the class it extends.
pub fn apply(facts: &mut Facts, parents: &[(String, String)], bound: &[String]) {
    let lenders: Vec<(String, Option<String>)> = facts
        .shapes
        .iter()
        .filter(|shape| shape.kind == MAPPED_SUPERCLASS)
        .map(|shape| {
            (
                shape.name.clone(),
                facts
                    .guards
                    .iter()
                    .find(|g| g.name == shape.name)
                    .and_then(|g| g.framework.clone()),
            )
        })
        .collect();
    if lenders.is_empty() {
        return;
    }
    facts.shapes.retain(|shape| shape.kind != MAPPED_SUPERCLASS);
    facts
        .guards
        .retain(|guard| !(guard.kind == "validation" && lenders.iter().any(|(name, _)| *name == guard.name)));
    let parent_of: HashMap<&str, &str> = parents.iter().map(|(c, p)| (c.as_str(), p.as_str())).collect();
    let mut added = Vec::new();
    for table in &facts.tables {
        let Some(model) = table.model.as_deref().filter(|model| bound.iter().any(|b| b == model)) else {
            continue;
        };
        let lineage = ancestry(model, MAX_DEPTH, |class| {
            parent_of.get(class).copied().into_iter().collect()
        });
        let lender = |class: &&str| lenders.iter().find(|(name, _)| name == class);
        if let Some((_, framework)) = lineage[1..].iter().find_map(lender) {
            added.push(Guard {
                name: model.to_owned(),
                kind: "validation".into(),
                framework: framework.clone(),
                file: table.file.clone(),
                ..Guard::default()
            });
        }
    }
    for guard in added {
        if !facts
            .guards
            .iter()
            .any(|have| have.kind == "validation" && have.name == guard.name)
        {
            facts.guards.push(guard);
        }
    }
}
