//! Schemas, tables and their columns, keys, an index, a group commit,
//! renames and drops.

use moraine::{
    Catalog, ColumnAlteration, ColumnDef, CommitMember, IndexDef, PartitionColumnDef, SortKeyDef,
    Transaction,
};

use super::lookup::{column_id, orders, schema, table, view_id};
use crate::steps::{column, commit, not_found};

/// Schemas and a table with every nested column kind.
pub(super) async fn create(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "create schema", |tx| {
        tx.create_schema("sales").map(drop)
    })
    .await?;
    commit(catalog, "create table", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_table(sales, "orders", &orders_columns())
            .map(drop)
    })
    .await?;
    Ok(())
}

/// Column changes: add, rename, type, default, nullability.
pub(super) async fn alter_columns(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "add column", |tx| {
        let orders = orders(tx)?;
        let mut discount = column("discount", "int32");
        discount.default_value = Some("0".to_owned());
        tx.add_column(orders, &discount).map(drop)
    })
    .await?;
    commit(catalog, "rename column", |tx| {
        let orders = orders(tx)?;
        let customer = column_id(tx, orders, "customer")?;
        tx.rename_column(orders, customer, "customer_name")
    })
    .await?;
    alter_orders_column(
        catalog,
        "change a column type",
        "discount",
        ColumnAlteration {
            column_type: Some("int64".to_owned()),
            nulls_allowed: None,
            default_value: None,
        },
    )
    .await?;
    alter_orders_column(
        catalog,
        "set a default and NOT NULL",
        "customer_name",
        ColumnAlteration {
            column_type: None,
            nulls_allowed: Some(false),
            default_value: Some(Some("'unknown'".to_owned())),
        },
    )
    .await?;
    alter_orders_column(
        catalog,
        "drop a default, allow NULL",
        "customer_name",
        ColumnAlteration {
            column_type: None,
            nulls_allowed: Some(true),
            default_value: Some(None),
        },
    )
    .await?;
    Ok(())
}

/// One commit altering the column `name` of `sales.orders`.
async fn alter_orders_column(
    catalog: &Catalog,
    step: &str,
    name: &str,
    alteration: ColumnAlteration,
) -> Result<(), String> {
    commit(catalog, step, |tx| {
        let orders = orders(tx)?;
        let column = column_id(tx, orders, name)?;
        tx.alter_column(orders, column, alteration.clone())
    })
    .await
    .map(drop)
}

/// Partition and sort keys.
pub(super) async fn set_keys(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "set partitioning", |tx| {
        let orders = orders(tx)?;
        let id = column_id(tx, orders, "id")?;
        tx.set_partitioning(
            orders,
            &[PartitionColumnDef {
                column: id,
                transform: "identity".to_owned(),
            }],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "set sorting", |tx| {
        let orders = orders(tx)?;
        tx.set_sorting(
            orders,
            &[
                sort_key("id", "ASC", "NULLS_LAST"),
                sort_key("customer_name", "DESC", "NULLS_FIRST"),
            ],
        )
        .map(drop)
    })
    .await?;
    Ok(())
}

/// An equality index, created and dropped (not part of the dump), then a
/// group commit: two snapshots in one batch.
pub(super) async fn index_and_group_commit(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "create an index", |tx| {
        let sales = schema(tx, "sales")?;
        let lookup = tx.create_table(sales, "lookup", &[column("k", "int64")])?;
        let k = column_id(tx, lookup, "k")?;
        tx.create_index(
            lookup,
            &IndexDef {
                name: "lookup_k".to_owned(),
                columns: vec![k],
                unique: false,
            },
            &[],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "drop an index", |tx| {
        let lookup = table(tx, "sales", "lookup")?;
        let index = tx
            .index_by_name(lookup, "lookup_k")
            .ok_or_else(|| not_found("index lookup_k"))?;
        tx.drop_index(index.id)
    })
    .await?;

    // A group commit: two snapshots in one batch.
    let create_ops = |tx: &mut Transaction| tx.create_schema("ops").map(drop);
    let create_jobs = |tx: &mut Transaction| {
        let ops = schema(tx, "ops")?;
        tx.create_table(ops, "jobs", &[column("id", "int64")])
            .map(drop)
    };
    let members: [CommitMember<'_>; 2] = [&create_ops, &create_jobs];
    catalog
        .commit_group(&members)
        .await
        .map_err(|e| format!("group commit failed: {e}"))?;
    Ok(())
}

/// Renames and moves.
pub(super) async fn rename_and_move(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "rename a table", |tx| {
        let orders = orders(tx)?;
        tx.rename_table(orders, "orders_v2")
    })
    .await?;
    commit(catalog, "move a table to another schema", |tx| {
        let jobs = table(tx, "ops", "jobs")?;
        let sales = schema(tx, "sales")?;
        tx.set_table_schema(jobs, sales)
    })
    .await?;
    Ok(())
}

/// Clearing the sort and partition keys.
pub(super) async fn clear_keys(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "clear sorting and partitioning", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        tx.clear_sorting(orders)?;
        tx.clear_partitioning(orders)
    })
    .await?;
    Ok(())
}

/// Dropping a nested column.
pub(super) async fn drop_nested_column(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "drop a nested column", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let labels = column_id(tx, orders, "labels")?;
        tx.drop_column(orders, labels)
    })
    .await?;
    Ok(())
}

/// Names outside ASCII: U+FF21 sorts before U+1F600 by UTF-8 bytes, the
/// other way round by UTF-16 units.
pub(super) async fn non_ascii_names(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "non-ASCII names", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_table(sales, "😀_grin", &[column("id", "int64")])?;
        tx.create_table(sales, "Ａ_wide", &[column("id", "int64")])?;
        let unicode = tx.create_schema("ünïcødé")?;
        tx.create_view(unicode, "Ｚ_view", "duckdb", "SELECT 1")
            .map(drop)
    })
    .await?;
    Ok(())
}

/// Drops: a view and a macro, a table, a schema.
pub(super) async fn drops(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "drop a view and a macro", |tx| {
        let sales = schema(tx, "sales")?;
        let view = view_id(tx, "big_orders")?;
        let add_one = tx
            .macro_by_name(sales, "add_one")
            .ok_or_else(|| not_found("macro add_one"))?;
        tx.drop_view(view)?;
        tx.drop_macro(add_one.id)
    })
    .await?;
    commit(catalog, "drop a table", |tx| {
        let lookup = table(tx, "sales", "lookup")?;
        tx.drop_table(lookup)
    })
    .await?;
    commit(catalog, "drop a schema", |tx| {
        let ops = schema(tx, "ops")?;
        tx.drop_schema(ops)
    })
    .await?;
    Ok(())
}

fn orders_columns() -> Vec<ColumnDef> {
    let mut id = column("id", "int64");
    id.nulls_allowed = false;
    let mut customer = column("customer", "varchar");
    customer.default_value = Some("'anon'".to_owned());
    let mut address = column("address", "struct");
    address.children = vec![column("street", "varchar"), column("zip", "int32")];
    let mut labels = column("labels", "list");
    labels.children = vec![column("element", "varchar")];
    let mut attributes = column("attributes", "map");
    attributes.children = vec![column("key", "varchar"), column("value", "int64")];
    vec![id, customer, address, labels, attributes]
}

fn sort_key(expression: &str, direction: &str, nulls: &str) -> SortKeyDef {
    SortKeyDef {
        expression: expression.to_owned(),
        dialect: "duckdb".to_owned(),
        sort_direction: direction.to_owned(),
        null_order: nulls.to_owned(),
    }
}
