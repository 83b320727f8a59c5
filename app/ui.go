package app

import (
	"context"
	"fmt"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"lading/api"
	"lading/auth"
	"lading/ops"
	"lading/paths"
	"lading/ui"
)

// uiOptions are the options of lading ui.
type uiOptions struct {
	globalOptions
	Addr, State, MaxUpload, Images, Timezone, Jobs string
}

var uiExamples = []example{
	{"the page for the current account, at http://127.0.0.1:8710", "lading ui"},
	{"on another port, the jobs' state kept in another file", "lading ui --addr 127.0.0.1:8711 --state shop.db"},
	{"with the jobs of lading run's jobs file listed, their last and next runs and files waiting", "lading ui --jobs /etc/lading/jobs.yaml"},
}

func uiCommand(b *builder) *cli.Command {
	o := &uiOptions{}
	return b.leaf(&cli.Command{
		Name:  "ui",
		Usage: "serve a web page on this computer to import, push, export and undo without the command line",
		Description: "Serves a web application on --addr for the account (--base-url and --token, or the stored token), and\n" +
			"prints its address: upload a catalog, see a preview of its products and a dry run's field-by-field\n" +
			"diff against the account, import it with live progress and read its results; push stock levels,\n" +
			"shipments and packing slips the same way; export reports with conditions; look through the runs\n" +
			"and undo one. It runs the same jobs as the commands, on the same state (--state): a run stopped in\n" +
			"the page continues from the command line, and the other way round.\n\n" +
			"It answers only on --addr, a loopback address unless told otherwise (it warns then), refuses\n" +
			"requests for another host name and forms from other pages, never shows the token, and keeps the\n" +
			"files given to it in a private folder it removes when it stops (Ctrl-C).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: ui.DefaultAddr, Destination: &o.Addr, Usage: "address to listen on; other than a loopback address, anyone who reaches it can work on the account"},
			stateFlag(&o.State, "of the jobs run from the page: runs, ids, levels, as the commands'"),
			&cli.StringFlag{Name: "max-upload", Value: "100MiB", Destination: &o.MaxUpload, Usage: "the largest file the page takes, e.g. 1GiB"},
			&cli.StringFlag{Name: "images", Destination: &o.Images, DefaultText: "the working folder", Usage: "folder the paths of a catalog's images are relative to (the page can change it)"},
			&cli.StringFlag{Name: "jobs", Destination: &o.Jobs, Usage: "a jobs file (lading run's): the page lists its jobs with their last and next runs and the files waiting, read again at each visit"},
			timezoneFlag(&o.Timezone, "time zone of shipments' and slips' dates written without an offset, and of exports"),
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runUI(c.Context, b.env, o)
		},
	}, &o.globalOptions, doc{examples: uiExamples, exits: []int{ExitInterrupted}})
}

// runUI serves the page until ctx ends (Ctrl-C).
func runUI(ctx context.Context, env *Env, o *uiOptions) error {
	stateGiven := o.State != ""
	cfg, err := o.config(env)
	if err != nil {
		return err
	}
	client, token, err := o.client(env)
	if err != nil {
		return err
	}
	cfg.Client, cfg.Scope, cfg.Account = client, o.account(token), auth.NormalizeBaseURL(o.BaseURL)
	if o.named != nil {
		cfg.Account = o.named.Name + " (" + cfg.Account + ")"
		cfg.Flags = []string{"--account", o.named.Name}
		if stateGiven {
			cfg.Flags = append(cfg.Flags, "--state", cfg.State)
		}
	}
	return serveUI(ctx, env, o.Addr, cfg)
}

// config checks the flags of lading ui and gives the page's settings but
// for the account.
func (o *uiOptions) config(env *Env) (ui.Config, error) {
	n, err := humanize.ParseBytes(o.MaxUpload)
	if err != nil || n == 0 {
		return ui.Config{}, Usagef("--max-upload %q: want a size like 100MiB or 1GiB", o.MaxUpload)
	}
	if o.Images != "" {
		if err := checkFolder("--images", o.Images, imagesFolder); err != nil {
			return ui.Config{}, err
		}
	}
	if o.State, err = o.stateFile(env, o.State); err != nil {
		return ui.Config{}, err
	}
	if err := checkStatePath(paths.Named{What: "--state", Path: o.State}); err != nil {
		return ui.Config{}, err
	}
	loc, err := env.zone(o.Timezone)
	if err != nil {
		return ui.Config{}, err
	}
	cfg := ui.Config{State: o.State, Rate: o.Rate, Concurrency: o.Concurrency, MaxUpload: int64(n), ImagesDir: o.Images,
		Location: loc, ImageTransport: env.ImageTransport, Log: env.Stderr, Logger: o.logger(env)}
	if o.Jobs != "" {
		if _, _, err := loadJobs(env, o.Jobs); err != nil {
			return ui.Config{}, err
		}
		cfg.Jobs = func(ctx context.Context) (*ui.JobsPlan, error) { return planJobs(ctx, env, o.Jobs) }
	}
	return cfg, nil
}

// planJobs reads the jobs file and says when each of its jobs runs next,
// as lading jobs check does.
func planJobs(ctx context.Context, env *Env, file string) (*ui.JobsPlan, error) {
	jobs, dirs, err := loadJobs(env, file)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if env.Now != nil {
		now = env.Now()
	}
	plan, err := ops.Plan(ctx, jobs, dirs, now)
	if err != nil {
		return nil, err
	}
	return &ui.JobsPlan{Path: jobs.Path, Jobs: plan, Now: now}, nil
}

// serveUI serves the page on addr with cfg until ctx ends, printing its
// address (and a warning when other computers reach it).
func serveUI(ctx context.Context, env *Env, addr string, cfg ui.Config) error {
	if cfg.Rate == 0 {
		cfg.Rate = api.DefaultRate
	}
	err := ui.Serve(ctx, addr, cfg, func(l ui.Listening) {
		if l.Warning != "" {
			fmt.Fprintf(env.Stderr, "warning: %s\n", l.Warning)
		}
		fmt.Fprintf(env.Stdout, "lading ui: %s (account %s); Ctrl-C stops it\n", l.URL, cfg.Account)
	})
	if err != nil {
		return usageHint("Give another address with --addr, e.g. 127.0.0.1:8711.", "%w", err)
	}
	return nil
}
