// Package metrics counts what buddi does and writes it in the Prometheus
// text exposition format (version 0.0.4) for GET /metrics. It is small on
// purpose: counters, histograms with fixed buckets, and families read from
// a function at scrape time (gauges such as sessions by state, and counts
// another part keeps, such as the egress guard's refusals), the process's
// own CPU and resident memory under their conventional names, and Value,
// which reads one sample back from such a page (the load test reads a
// server's CPU so). It imports nothing of buddi's, so actors, egress, the
// daemon and ui can all feed it.
//
// Concurrency: counters and histograms are updated with atomics and may be
// used from any goroutine, including inside an actor's Receive; a vector's
// label map takes a mutex only when a new label set appears. WriteTo may run
// concurrently with updates: each sample is read atomically, so a scrape
// sees every counter at some moment during the scrape.
package metrics
