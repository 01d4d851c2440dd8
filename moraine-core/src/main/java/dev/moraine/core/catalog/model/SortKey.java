package dev.moraine.core.catalog.model;

/**
 * One key of a sort spec to set: an expression in a SQL dialect, a direction ({@code ASC} or {@code
 * DESC}) and a null placement ({@code NULLS_FIRST} or {@code NULLS_LAST}), each stored verbatim and
 * never parsed.
 */
public record SortKey(String expression, String dialect, String sortDirection, String nullOrder) {}
