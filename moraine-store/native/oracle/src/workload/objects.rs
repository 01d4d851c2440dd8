//! Views, macros, tags and options.

use moraine::{Catalog, MacroImplementationDef, MacroParameterDef, OptionScope, TagTarget};

use super::lookup::{orders, schema, view_id};
use crate::steps::commit;

/// Views and macros.
pub(super) async fn views_and_macros(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "create a view", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_view(
            sales,
            "big_orders",
            "duckdb",
            "SELECT * FROM sales.orders WHERE id > 10",
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "alter a view", |tx| {
        let view = view_id(tx, "big_orders")?;
        tx.alter_view(view, "duckdb", "SELECT * FROM sales.orders WHERE id > 100")
    })
    .await?;
    commit(catalog, "create a scalar macro", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_macro(
            sales,
            "add_one",
            &[MacroImplementationDef {
                dialect: "duckdb".to_owned(),
                sql: "x + 1".to_owned(),
                macro_type: "scalar".to_owned(),
                parameters: vec![MacroParameterDef {
                    name: "x".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: Some("1".to_owned()),
                    default_value_type: "int64".to_owned(),
                }],
            }],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "create a table macro", |tx| {
        let sales = schema(tx, "sales")?;
        let implementation = |dialect: &str, sql: &str| MacroImplementationDef {
            dialect: dialect.to_owned(),
            sql: sql.to_owned(),
            macro_type: "table".to_owned(),
            parameters: vec![
                MacroParameterDef {
                    name: "lo".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: None,
                    default_value_type: "unknown".to_owned(),
                },
                MacroParameterDef {
                    name: "hi".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: Some("100".to_owned()),
                    default_value_type: "int64".to_owned(),
                },
            ],
        };
        tx.create_macro(
            sales,
            "orders_between",
            &[
                implementation(
                    "duckdb",
                    "SELECT * FROM sales.orders WHERE id BETWEEN lo AND hi",
                ),
                implementation("ansi", "SELECT * FROM orders WHERE id BETWEEN lo AND hi"),
            ],
        )
        .map(drop)
    })
    .await?;
    Ok(())
}

/// Tags and comments: set, replace, remove.
pub(super) async fn tags(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "tag objects", |tx| {
        let sales = schema(tx, "sales")?;
        let orders = orders(tx)?;
        let view = view_id(tx, "big_orders")?;
        tx.set_tag(TagTarget::Schema(sales), "comment", "Sales data")?;
        tx.set_tag(TagTarget::Table(orders), "comment", "One row per order")?;
        tx.set_tag(TagTarget::Table(orders), "owner", "finance")?;
        tx.set_tag(TagTarget::View(view), "owner", "analytics")
    })
    .await?;
    commit(catalog, "replace and remove tags", |tx| {
        let orders = orders(tx)?;
        let view = view_id(tx, "big_orders")?;
        tx.set_tag(
            TagTarget::Table(orders),
            "comment",
            "One row per placed order",
        )?;
        tx.remove_tag(TagTarget::View(view), "owner")
    })
    .await?;
    Ok(())
}

/// Options at every scope; these commits mint no snapshot.
pub(super) async fn options(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "set options", |tx| {
        let sales = schema(tx, "sales")?;
        let orders = orders(tx)?;
        tx.set_option(OptionScope::Global, "retention", "7 days")?;
        tx.set_option(OptionScope::Schema(sales), "target_file_size", "1MB")?;
        tx.set_option(OptionScope::Table(orders), "parquet_row_group_size", "4096")?;
        tx.set_option(OptionScope::Table(orders), "compression", "zstd")
    })
    .await?;
    commit(catalog, "unset an option", |tx| {
        let orders = orders(tx)?;
        tx.unset_option(OptionScope::Table(orders), "compression")
    })
    .await?;
    Ok(())
}
