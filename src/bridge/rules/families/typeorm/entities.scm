; framework: typeorm
; language: typescript
; needles: typeorm
; TypeORM entities: an `@Entity()` class is a table named by TypeORM's default naming strategy
; (the snake case of the class) unless `@Entity('users')` or `@Entity({ name, schema })` names
; it. Its `@Column`/`@PrimaryGeneratedColumn`/date columns are columns (each decorated field a
; `column.scope`, its options read inside it); `@ManyToOne`/`@OneToOne` + `@JoinColumn` add
; a key column and a foreign key to the other entity's table; `@Index`/`@Unique` are indexes.
; A class without decorators lends its columns to the entities extending it (an abstract
; base); `@ManyToMany` + `@JoinTable` makes a join table named at linking (`join_naming.rs`).

; @Entity() class Post {…}, @Entity('users') export class User extends Base {…}
([(class_declaration
    decorator: (decorator [(call_expression function: (identifier) @_entity) (identifier) @_entity])
    name: (type_identifier) @table.model
    (class_heritage (extends_clause value: (identifier) @table.parent))?
    body: (class_body) @table.scope)
  (export_statement
    decorator: (decorator [(call_expression function: (identifier) @_entity) (identifier) @_entity])
    declaration: (class_declaration
      name: (type_identifier) @table.model
      (class_heritage (extends_clause value: (identifier) @table.parent))?
      body: (class_body) @table.scope))]
  (#eq? @_entity "Entity")
  (#set! naming "snake"))

; @Entity('users'), @Entity({ name: 'posts', schema: 'blog' })
([(class_declaration
    decorator: (decorator (call_expression function: (identifier) @_entity arguments: (arguments
      [(string) @table.name
       (object [
         (pair key: (property_identifier) @_name value: (string) @table.name)
         (pair key: (property_identifier) @_schema value: (string) @table.schema)])])))
    body: (class_body) @table.scope)
  (export_statement
    decorator: (decorator (call_expression function: (identifier) @_entity arguments: (arguments
      [(string) @table.name
       (object [
         (pair key: (property_identifier) @_name value: (string) @table.name)
         (pair key: (property_identifier) @_schema value: (string) @table.schema)])])))
    declaration: (class_declaration body: (class_body) @table.scope))]
  (#eq? @_entity "Entity")
  (#eq? @_name "name")
  (#eq? @_schema "schema"))

; a class without decorators: a base lending its columns to the entities extending it
([(class_declaration !decorator name: (type_identifier) @table.model body: (class_body) @table.scope)
  (abstract_class_declaration !decorator name: (type_identifier) @table.model body: (class_body) @table.scope)]
  (#set! origin "mapped-superclass")
  (#set! tentative "true"))

; @Column() title: string, @PrimaryGeneratedColumn() id: number (the TypeScript type unless the
; options name one)
((public_field_definition
  decorator: (decorator (call_expression function: [(identifier) @_column (identifier) @_primary]))
  name: (property_identifier) @column.field
  type: (type_annotation (_) @column.annotation)?) @column.scope
  (#any-of? @_column "Column" "CreateDateColumn" "UpdateDateColumn" "DeleteDateColumn" "VersionColumn")
  (#any-of? @_primary "PrimaryColumn" "PrimaryGeneratedColumn" "ObjectIdColumn")
  (#set! nullable "false")
  (#set! @_primary primary "true"))

; @Column('varchar', { length: 200 }), @Column({ type, name, length, nullable, unique, primary }),
; @JoinColumn({ name: 'author_id', referencedColumnName: 'id' }), @ManyToOne(…, { nullable: false })
((call_expression
  function: (identifier) @_decorator
  arguments: [
    (arguments . (string) @column.type)
    (arguments
      (object [
        (pair key: (property_identifier) @_name value: (string) @column.name)
        (pair key: (property_identifier) @_type value: (string) @column.type)
        (pair key: (property_identifier) @_length value: (_) @column.length)
        (pair key: (property_identifier) @_nullable value: (_) @column.nullable)
        (pair key: (property_identifier) @_unique value: (_) @column.unique)
        (pair key: (property_identifier) @_primary value: (_) @column.primary)
        (pair key: (property_identifier) @_referenced value: (string) @fk.references)]))])
  (#match? @_decorator "^(Column|Primary(Generated)?Column|(Create|Update|Delete)DateColumn|VersionColumn|JoinColumn|ManyToOne|OneToOne)$")
  (#eq? @_name "name")
  (#eq? @_type "type")
  (#eq? @_length "length")
  (#eq? @_nullable "nullable")
  (#eq? @_unique "unique")
  (#eq? @_primary "primary")
  (#eq? @_referenced "referencedColumnName")
  (#not-match? @column.type "^.(increment|identity|rowid).$")
  (#set! length-type "varchar"))

; @ManyToOne(() => User) author: User: the key column `authorId` (or @JoinColumn's name), to
; User's table and its primary key; an @OneToOne only with a @JoinColumn (else the other side
; holds the key)
((public_field_definition
  decorator: (decorator
    (call_expression
      function: (identifier) @_many
      arguments: (arguments . [(arrow_function body: (identifier) @fk.model) (string) @fk.model])))
  name: (property_identifier) @column.field) @column.scope
  (#eq? @_many "ManyToOne")
  (#set! naming "camel_id")
  (#set! nullable "true")
  (#set! fk-naming "snake")
  (#set! fk-references "primary"))

((public_field_definition
  decorator: (decorator
    (call_expression
      function: (identifier) @_one
      arguments: (arguments . [(arrow_function body: (identifier) @fk.model) (string) @fk.model])))
  decorator: (decorator (call_expression function: (identifier) @_join))
  name: (property_identifier) @column.field) @column.scope
  (#eq? @_one "OneToOne")
  (#eq? @_join "JoinColumn")
  (#set! naming "camel_id")
  (#set! nullable "true")
  (#set! fk-naming "snake")
  (#set! fk-references "primary"))

; @Index() / @Unique() on a field: an index on its column
((public_field_definition
  decorator: (decorator
    (call_expression
      function: [(identifier) @_index (identifier) @_unique]
      arguments: (arguments (object (pair key: (property_identifier) @_key value: (_) @index.unique))?)))
  name: (property_identifier) @index.column)
  (#eq? @_index "Index")
  (#eq? @_unique "Unique")
  (#eq? @_key "unique")
  (#set! @_unique unique "true"))

; @Index('idx_posts_author_slug', ['author', 'slug'], { unique: true }), @Unique('uq', ['email'])
; on the class: an index on the columns of those fields
([(class_declaration
    decorator: (decorator (call_expression
      function: [(identifier) @_index (identifier) @_unique]
      arguments: (arguments
        (string)? @index.name
        (array (string) @index.column)
        (object (pair key: (property_identifier) @_key value: (_) @index.unique))?)) @index.scope)
    body: (class_body) @table.scope)
  (export_statement
    decorator: (decorator (call_expression
      function: [(identifier) @_index (identifier) @_unique]
      arguments: (arguments
        (string)? @index.name
        (array (string) @index.column)
        (object (pair key: (property_identifier) @_key value: (_) @index.unique))?)) @index.scope)
    declaration: (class_declaration body: (class_body) @table.scope))]
  (#eq? @_index "Index")
  (#eq? @_unique "Unique")
  (#eq? @_key "unique")
  (#set! @_unique unique "true"))

; @ManyToMany(() => Topic) @JoinTable() topics: Topic[]: a join table keyed to both sides, named
; by TypeORM's naming strategy (`courses_topics_topic`, `coursesId`, `topicSlug`) unless
; @JoinTable({ name, joinColumn: { name }, inverseJoinColumn: { name } }) names it
((public_field_definition
  decorator: (decorator
    (call_expression
      function: (identifier) @_many
      arguments: (arguments . [(arrow_function body: (identifier) @join.other) (string) @join.other])))
  decorator: (decorator (call_expression function: (identifier) @_join))
  name: (property_identifier) @join.property) @join.scope
  (#eq? @_many "ManyToMany")
  (#eq? @_join "JoinTable")
  (#set! join-naming "typeorm"))

((call_expression
  function: (identifier) @_join
  arguments: (arguments
    (object [
      (pair key: (property_identifier) @_name value: (string) @join.table)
      (pair key: (property_identifier) @_own value: (object (pair key: (property_identifier) @_own_name value: (string) @join.own_column)))
      (pair key: (property_identifier) @_other value: (object (pair key: (property_identifier) @_other_name value: (string) @join.other_column)))])))
  (#eq? @_join "JoinTable")
  (#eq? @_name "name")
  (#eq? @_own "joinColumn")
  (#eq? @_other "inverseJoinColumn")
  (#eq? @_own_name "name")
  (#eq? @_other_name "name"))
