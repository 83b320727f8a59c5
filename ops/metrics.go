package ops

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are what the runner tells Prometheus, per account and job (by
// the job's name): runs by outcome, rows by status, requests and the
// throttled answers among them, when the job last succeeded and how long
// its turns are apart (for an alert on a job that has not succeeded for a
// few turns), and the files waiting in each folder. A nil *Metrics counts
// nothing.
type Metrics struct {
	Registry    *prometheus.Registry
	runs        *prometheus.CounterVec
	rows        *prometheus.CounterVec
	requests    *prometheus.CounterVec
	throttled   *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	lastSuccess *prometheus.GaugeVec
	interval    *prometheus.GaugeVec
	waiting     *prometheus.GaugeVec
}

// jobLabels name a job's series: its account, and its name (job_name, as
// Prometheus gives "job" to the scrape's own label: a series' "job" would
// become "exported_job").
var jobLabels = []string{"account", "job_name"}

// NewMetrics registers the runner's metrics, and the Go runtime's and the
// process's, in a registry of their own.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lading_job_runs_total",
			Help: "Runs of a job by outcome: ok, partial (some rows failed), failed, locked (another process ran it), interrupted."},
			append(jobLabels, "outcome")),
		rows: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lading_job_rows_total",
			Help: "Input rows of a job's runs by what became of them (sent, posted, unchanged, failed, ...)."},
			append(jobLabels, "action")),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lading_job_requests_total",
			Help: "Requests a job sent to the service."}, jobLabels),
		throttled: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lading_job_throttled_total",
			Help: "Answers of the service to a job that asked it to slow down."}, jobLabels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lading_job_run_duration_seconds",
			Help: "How long a job's runs took.", Buckets: prometheus.ExponentialBuckets(0.05, 3, 10)}, jobLabels),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lading_job_last_success_timestamp_seconds",
			Help: "When a run of the job last did its work (some rows may have failed), in Unix seconds; 0 if never."}, jobLabels),
		interval: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lading_job_interval_seconds",
			Help: "About how long a job's turns are apart (every, or a schedule's gap), in seconds."}, jobLabels),
		waiting: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "lading_folder_files_waiting",
			Help: "Files in a folder job's folder not yet taken and moved aside."}, append(jobLabels, "folder")),
	}
	m.Registry.MustRegister(m.runs, m.rows, m.requests, m.throttled, m.duration, m.lastSuccess, m.interval, m.waiting,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// job makes a job's series known before its first run: its last success
// as the state remembers it, how far its turns are apart.
func (m *Metrics) job(j *Job, t Times, now time.Time) {
	if m == nil {
		return
	}
	success := 0.0
	if !t.Success.IsZero() {
		success = float64(t.Success.UnixMilli()) / 1000
	}
	m.lastSuccess.WithLabelValues(j.Account, j.Name).Set(success)
	if j.Folder == "" {
		m.interval.WithLabelValues(j.Account, j.Name).Set(j.Interval(now).Seconds())
	}
	for _, o := range []Outcome{OK, Partial, Failed} {
		m.runs.WithLabelValues(j.Account, j.Name, string(o))
	}
}

// ran counts a run of j.
func (m *Metrics) ran(j *Job, o Outcome, res Result, elapsed time.Duration, end time.Time) {
	if m == nil {
		return
	}
	m.runs.WithLabelValues(j.Account, j.Name, string(o)).Inc()
	for action, n := range res.Rows {
		m.rows.WithLabelValues(j.Account, j.Name, string(action)).Add(float64(n))
	}
	m.requests.WithLabelValues(j.Account, j.Name).Add(float64(res.Traffic.Requests))
	m.throttled.WithLabelValues(j.Account, j.Name).Add(float64(res.Traffic.Throttled))
	if o != Locked {
		m.duration.WithLabelValues(j.Account, j.Name).Observe(elapsed.Seconds())
	}
	if o == OK || o == Partial {
		m.lastSuccess.WithLabelValues(j.Account, j.Name).Set(float64(end.UnixMilli()) / 1000)
	}
}

// waitingFiles sets how many files wait in a folder job's folder.
func (m *Metrics) waitingFiles(j *Job, n int) {
	if m == nil {
		return
	}
	m.waiting.WithLabelValues(j.Account, j.Name, j.Folder).Set(float64(n))
}

// Serve answers on ln until ctx ends: /metrics in Prometheus's text
// format, and /healthz, 200 while healthy() returns nil, else 503 with
// its error.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener, healthy func() error) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := healthy(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
