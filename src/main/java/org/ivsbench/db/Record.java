package org.ivsbench.db;

import java.util.Map;

/** One record to insert: its key and field name -> value (insertion order kept by the caller's map). */
public record Record(String key, Map<String, String> fields) {}
