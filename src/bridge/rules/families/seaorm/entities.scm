; framework: seaorm
; language: rust
; needles: sea_orm
; SeaORM entities: the `Model` struct under `#[sea_orm(table_name = "cakes", schema_name = …)]`
; is the file's table; its fields are columns (`Option<T>` nullable), their `#[sea_orm(…)]`
; options (`primary_key`, `unique`, `nullable`, `indexed`, `column_name`, `column_type`) read
; inside each field; a `belongs_to` of the `Relation` enum is a foreign key to the table of the
; entity's module (resolved across files, `inherit.rs`).

((source_file
  (attribute_item
    (attribute
      (identifier) @_sea
      arguments: (token_tree
        [((identifier) @_table . (string_literal) @table.name)
         ((identifier) @_schema . (string_literal) @table.schema)])))
  .
  (struct_item name: (type_identifier) @_model)) @table.scope
  (#eq? @_sea "sea_orm")
  (#eq? @_table "table_name")
  (#eq? @_schema "schema_name")
  (#eq? @_model "Model"))

; pub name: String, pub cake_id: Option<i32>
((struct_item
  name: (type_identifier) @_model
  body: (field_declaration_list
    (field_declaration
      name: (field_identifier) @column.field
      type: [
        (generic_type type: (type_identifier) @_option type_arguments: (type_arguments (_) @column.annotation))
        (_) @column.annotation]) @column.scope))
  (#eq? @_model "Model")
  (#eq? @_option "Option")
  (#not-match? @column.annotation "^Option\\s*<")
  (#set! @_option nullable "true")
  (#set! nullable "false"))

; #[sea_orm(primary_key, unique, nullable, column_name = "price_cents", column_type = "Text")]
((attribute_item
  (attribute
    (identifier) @_sea
    arguments: (token_tree
      [(identifier) @_primary
       (identifier) @_unique
       (identifier) @_nullable
       ((identifier) @_name . (string_literal) @column.name)
       ((identifier) @_type . (string_literal) @column.type)])))
  .
  (field_declaration) @column.scope
  (#eq? @_sea "sea_orm")
  (#eq? @_primary "primary_key")
  (#eq? @_unique "unique")
  (#eq? @_nullable "nullable")
  (#eq? @_name "column_name")
  (#eq? @_type "column_type")
  (#set! @_primary primary "true")
  (#set! @_unique unique "true")
  (#set! @_nullable nullable "true"))

; #[sea_orm(indexed)]
((attribute_item
  (attribute (identifier) @_sea arguments: (token_tree (identifier) @_indexed)))
  .
  (field_declaration name: (field_identifier) @index.column)
  (#eq? @_sea "sea_orm")
  (#eq? @_indexed "indexed"))

; #[sea_orm(belongs_to = "super::cake::Entity", from = "Column::CakeId", to = "super::cake::Column::Id")]
((enum_item
  name: (type_identifier) @_relation
  body: (enum_variant_list
    (attribute_item
      (attribute
        (identifier) @_sea
        arguments: (token_tree
          (identifier) @_belongs . (string_literal) @fk.module
          (identifier) @_from . (string_literal) @fk.column
          ((identifier) @_to . (string_literal) @fk.references)?)))))
  (#eq? @_relation "Relation")
  (#eq? @_sea "sea_orm")
  (#eq? @_belongs "belongs_to")
  (#eq? @_from "from")
  (#eq? @_to "to")
  (#set! fk-column "{}"))
