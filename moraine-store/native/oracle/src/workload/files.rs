//! Data files with statistics and partition values, a delete file, table
//! and column statistics, and the files' expiry.

use moraine::{
    Catalog, CatalogSnapshot, ColumnStats, DataFile, DeleteFile, FileColumnStats, TableId,
};

use super::lookup::{column_id, data_file_id, orders, table};
use crate::steps::{commit, not_found};

/// Data files with statistics and partition values, a delete file, and
/// table and column statistics.
pub(super) async fn register(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "register a data file", |tx| {
        let orders = orders(tx)?;
        let file = data_file(tx, orders, "data/orders-1.parquet", 100, "1")?;
        tx.register_data_file(orders, file, &[]).map(drop)
    })
    .await?;
    commit(catalog, "register a second data file", |tx| {
        let orders = orders(tx)?;
        let mut file = data_file(tx, orders, "data/orders-2.parquet", 50, "2")?;
        file.column_stats[0].contains_nan = Some(false);
        file.column_stats[0].extra_stats = Some("{\"distinct\":50}".to_owned());
        tx.register_data_file(orders, file, &[]).map(drop)
    })
    .await?;
    commit(catalog, "register a delete file", |tx| {
        let orders = orders(tx)?;
        let target = data_file_id(tx, orders, "data/orders-1.parquet")?;
        tx.register_delete_file(
            orders,
            DeleteFile {
                data_file_id: target,
                path: "data/orders-1-delete.parquet".to_owned(),
                path_is_relative: true,
                format: "parquet".to_owned(),
                delete_count: 3,
                file_size_bytes: 812,
                footer_size: 301,
                encryption_key: None,
            },
            &[],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "table statistics", |tx| {
        let orders = orders(tx)?;
        tx.update_table_stats(orders, 147, 9_216)
    })
    .await?;
    commit(catalog, "column statistics", |tx| {
        let orders = orders(tx)?;
        let id = column_id(tx, orders, "id")?;
        let customer = column_id(tx, orders, "customer_name")?;
        tx.update_column_stats(
            orders,
            id,
            ColumnStats {
                contains_null: Some(false),
                contains_nan: None,
                min_value: Some("1".to_owned()),
                max_value: Some("150".to_owned()),
                extra_stats: None,
            },
        )?;
        tx.update_column_stats(
            orders,
            customer,
            ColumnStats {
                contains_null: Some(true),
                contains_nan: Some(false),
                min_value: Some("Ada".to_owned()),
                max_value: Some("Zoë".to_owned()),
                extra_stats: Some("{\"max_length\":12}".to_owned()),
            },
        )
    })
    .await?;
    Ok(())
}

/// Expiring the delete file, then a data file.
pub(super) async fn expire(catalog: &Catalog) -> Result<(), String> {
    commit(catalog, "expire the delete file", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let delete = tx
            .delete_files_of(orders)
            .first()
            .map(|d| d.id)
            .ok_or_else(|| not_found("delete file of orders_v2"))?;
        tx.expire_delete_file(orders, delete)
    })
    .await?;
    commit(catalog, "expire a data file", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let file = data_file_id(tx, orders, "data/orders-2.parquet")?;
        tx.expire_data_file(orders, file)
    })
    .await?;
    Ok(())
}

/// A file of `orders` with statistics for `id` and `customer_name`.
fn data_file(
    view: &CatalogSnapshot,
    orders: TableId,
    path: &str,
    record_count: u64,
    partition: &str,
) -> moraine::Result<DataFile> {
    let id = column_id(view, orders, "id")?;
    let customer = column_id(view, orders, "customer_name")?;
    Ok(DataFile {
        path: path.to_owned(),
        path_is_relative: true,
        file_format: "parquet".to_owned(),
        record_count,
        file_size_bytes: 40 * record_count + 1_000,
        footer_size: 512,
        encryption_key: None,
        partition_values: vec![partition.to_owned()],
        column_stats: vec![
            FileColumnStats {
                column_id: id,
                column_size_bytes: 8 * record_count,
                value_count: record_count,
                null_count: 0,
                min_value: Some("1".to_owned()),
                max_value: Some(record_count.to_string()),
                contains_nan: None,
                extra_stats: None,
            },
            FileColumnStats {
                column_id: customer,
                column_size_bytes: 12 * record_count,
                value_count: record_count,
                null_count: 2,
                min_value: Some("Ada".to_owned()),
                max_value: Some("Zoë".to_owned()),
                contains_nan: None,
                extra_stats: None,
            },
        ],
    })
}
