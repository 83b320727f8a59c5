package ui

import (
	"context"
	"net/http"
	"time"

	"lading/ops"
)

// JobsPlan is a jobs file (lading run's) with when each of its jobs runs
// next as of Now, as lading jobs check says.
type JobsPlan struct {
	Path string
	Jobs []ops.Planned
	Now  time.Time
}

// jobsView is the page of the jobs: the file's jobs with their last and
// next runs and the files waiting, or why there are none.
type jobsView struct {
	Path    string
	Jobs    []plannedJob
	Missing bool   // lading ui was given no jobs file
	Error   string // the file cannot be read, or has mistakes
}

// plannedJob is a line of the jobs page.
type plannedJob struct {
	Account, Name, Kind, When, Next string
	Line                            int
	Last, Success                   time.Time
	Unfinished                      bool
	Waiting                         int
	Folder                          string
}

func (s *Server) handleJobs(w http.ResponseWriter, r *http.Request) {
	v := s.jobsView(r.Context())
	s.render(w, r, http.StatusOK, "jobs", "Jobs", "jobs", v)
}

func (s *Server) jobsView(ctx context.Context) jobsView {
	if s.cfg.Jobs == nil {
		return jobsView{Missing: true}
	}
	plan, err := s.cfg.Jobs(ctx)
	if err != nil {
		return jobsView{Error: err.Error()}
	}
	v := jobsView{Path: plan.Path}
	for _, p := range plan.Jobs {
		v.Jobs = append(v.Jobs, plannedJob{Account: p.Job.Account, Name: p.Job.Name, Kind: p.Job.Kind, Line: p.Job.Line,
			When: p.Job.When(), Next: p.NextText(plan.Now, s.cfg.Location), Last: p.Times.Started, Success: p.Times.Success,
			Unfinished: p.Times.Unfinished(), Waiting: p.Waiting, Folder: p.Job.Folder})
	}
	return v
}
