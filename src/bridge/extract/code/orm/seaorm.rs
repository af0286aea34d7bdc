//! SeaORM entities: the `Model` struct under `#[sea_orm(table_name = "…")]` with its fields'
//! `#[sea_orm(primary_key, column_name, column_type, nullable, unique, indexed)]`, and
//! `belongs_to` relations of the `Relation` enum as foreign keys to the other entity's table.

use tree_sitter::Node;

use super::{ModelRef, PendingKey, PendingTable, snake_case};
use crate::bridge::extract::code::modules::rust::{module_of, segments, target_module};
use crate::bridge::extract::syntax::rust::{attribute_arguments, attribute_name, last_segment};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// Reads the SeaORM entity of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    let mut model = None;
    let mut relations = Vec::new();
    index.each(&["struct_item", "enum_item"], |node| match node.kind() {
        "struct_item" if file.field_text(node, "name") == Some("Model") => {
            model = model.take().or_else(|| entity(file, node));
        }
        "enum_item" if file.field_text(node, "name") == Some("Relation") => relations.push(node),
        _ => {}
    });
    let Some(mut pending) = model else { return };
    for relation in relations {
        belongs_to(file, &mut pending, relation);
    }
    out.push(pending);
}

/// The `sea_orm(…)` arguments of the attributes before an item or field, as key/value pairs.
fn sea_orm_options(file: &ParsedFile<'_>, attributes: &[Node<'_>]) -> Vec<(String, String)> {
    attributes
        .iter()
        .filter_map(|item| item.named_child(0))
        .filter(|attribute| attribute_name(file, *attribute) == "sea_orm")
        .flat_map(|attribute| attribute_arguments(file, attribute).1)
        .collect()
}

fn option<'o>(options: &'o [(String, String)], key: &str) -> Option<&'o str> {
    options
        .iter()
        .find(|(have, _)| have == key)
        .map(|(_, value)| value.as_str())
}

fn entity(file: &ParsedFile<'_>, model: Node<'_>) -> Option<PendingTable> {
    let mut attributes = Vec::new();
    let mut previous = model.prev_named_sibling();
    while let Some(node) = previous.filter(|node| node.kind() == "attribute_item") {
        attributes.push(node);
        previous = node.prev_named_sibling();
    }
    let options = sea_orm_options(file, &attributes);
    let name = option(&options, "table_name")?.to_owned();
    let mut pending = PendingTable {
        table: Table {
            name: name.clone(),
            schema: option(&options, "schema_name").map(str::to_owned),
            origin: "model".into(),
            framework: Some("seaorm".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        ..PendingTable::default()
    };
    let mut field_attributes = Vec::new();
    for child in named_children(model.field("body")?) {
        if child.kind() == "attribute_item" {
            field_attributes.push(child);
            continue;
        }
        if child.kind() != "field_declaration" {
            continue;
        }
        let options = sea_orm_options(file, &std::mem::take(&mut field_attributes));
        let (Some(field), Some(rust_type)) = (file.field_text(child, "name"), file.field_text(child, "type")) else {
            continue;
        };
        let optional = rust_type
            .strip_prefix("Option<")
            .and_then(|inner| inner.strip_suffix('>'));
        let column_name = option(&options, "column_name").unwrap_or(field).to_owned();
        let primary_key = option(&options, "primary_key").is_some();
        if primary_key {
            pending.table.primary_key.push(column_name.clone());
        }
        if option(&options, "indexed").is_some() {
            pending.indexes.push(Index {
                name: None,
                table: name.clone(),
                columns: vec![column_name.clone()],
                unique: false,
                file: file.path.to_owned(),
            });
        }
        pending.table.columns.push(Column {
            field: (column_name != field).then(|| field.to_owned()),
            data_type: Some(
                option(&options, "column_type")
                    .unwrap_or(optional.unwrap_or(rust_type))
                    .to_owned(),
            ),
            nullable: Some(optional.is_some() || option(&options, "nullable").is_some()),
            primary_key,
            unique: option(&options, "unique").is_some(),
            name: column_name,
        });
    }
    Some(pending)
}

/// `#[sea_orm(belongs_to = "super::cake::Entity", from = "Column::CakeId", to = "super::cake::Column::Id")]`.
fn belongs_to(file: &ParsedFile<'_>, pending: &mut PendingTable, relation: Node<'_>) {
    let Some(body) = relation.field("body") else {
        return;
    };
    let mut attributes = Vec::new();
    for child in named_children(body) {
        if child.kind() == "attribute_item" {
            attributes.push(child);
            continue;
        }
        let options = sea_orm_options(file, &std::mem::take(&mut attributes));
        let (Some(entity), Some(from)) = (option(&options, "belongs_to"), option(&options, "from")) else {
            continue;
        };
        let column = column_of(pending, last_segment(from));
        let referenced = option(&options, "to").map(|to| snake_case(last_segment(to)));
        let path = segments(entity);
        let Some(module) = target_module(&module_of(file.path), &path) else {
            continue;
        };
        let fallback = module.last().cloned().unwrap_or_default();
        pending.targets.push(PendingKey {
            at: pending.table.foreign_keys.len(),
            target: ModelRef::Module(module),
            fallback,
        });
        pending.table.foreign_keys.push(ForeignKey {
            name: None,
            columns: vec![column],
            references_table: String::new(),
            references_columns: referenced.into_iter().collect(),
        });
    }
}

/// The column a `Column::CakeId` variant stands for: the field `cake_id`, renamed or not.
fn column_of(pending: &PendingTable, variant: &str) -> String {
    let field = snake_case(variant);
    pending
        .table
        .columns
        .iter()
        .find(|column| column.field.as_deref() == Some(field.as_str()))
        .map_or(field, |column| column.name.clone())
}
