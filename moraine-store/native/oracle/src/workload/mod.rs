//! The scripted workload of `moraine-oracle write`: one commit per step,
//! over every change kind the crate's verb API offers, with fixed names and
//! sizes. The crate mints random uuids and wall-clock times itself; nothing
//! else varies between two runs.
//!
//! What the verb API cannot do, and so the workload does not: column
//! mappings, column tags, commit author/message/extra info and snapshot
//! expiry are written only by the crate's staged-row (SQL) path.
//!
//! A commit closure may run more than once (the crate retries it after a
//! lost race), so every step looks its objects up by name instead of
//! carrying ids from step to step.

mod files;
mod inlined;
mod lookup;
mod objects;
mod tables;

use std::path::Path;

use moraine::Catalog;

use crate::lake;

/// Runs the workload into a new lake in `dir`.
pub async fn write(dir: &Path) -> Result<(), String> {
    let catalog = lake::open_writer(dir).await?;
    if catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?
        .current_snapshot()
        .id
        .get()
        != 0
    {
        return Err(format!(
            "{} already holds a lake with commits; write needs a new directory",
            dir.display()
        ));
    }
    let outcome = run(&catalog).await;
    let closed = catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"));
    outcome?;
    closed
}

/// The steps, area by area, in the one order both sides of the interop
/// tests rely on: snapshot ids follow it.
async fn run(catalog: &Catalog) -> Result<(), String> {
    tables::create(catalog).await?;
    tables::alter_columns(catalog).await?;
    tables::set_keys(catalog).await?;
    files::register(catalog).await?;
    objects::views_and_macros(catalog).await?;
    objects::tags(catalog).await?;
    objects::options(catalog).await?;
    inlined::insert_delete_flush(catalog).await?;
    tables::index_and_group_commit(catalog).await?;
    tables::rename_and_move(catalog).await?;
    tables::clear_keys(catalog).await?;
    files::expire(catalog).await?;
    tables::drop_nested_column(catalog).await?;
    tables::non_ascii_names(catalog).await?;
    tables::drops(catalog).await?;
    inlined::table_stats(catalog).await
}
