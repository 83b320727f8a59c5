package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
)

// Defaults of Options.
const (
	DefaultMaxSize      = 20 << 20
	DefaultConcurrency  = 4
	DefaultTimeout      = time.Minute
	DefaultMaxRedirects = 5
	DefaultAhead        = 32
)

// Options say what a Fetcher reads and how. Zero values take the
// defaults above.
type Options struct {
	// Dir is the folder local paths are read under; "" refuses them.
	Dir string
	// MaxSize is the most bytes an image may have.
	MaxSize int64
	// Concurrency is how many images are fetched at once.
	Concurrency int
	// Timeout bounds one download, from the request to the last byte.
	Timeout time.Duration
	// MaxRedirects is how many redirects a download follows.
	MaxRedirects int
	// Ahead is how many images are fetched ahead of those released (all
	// their uses given up): as uses are released, the next are fetched.
	Ahead int
	// Transport carries the requests: nil is http.DefaultTransport's
	// settings (proxies from the environment). Tests give one that never
	// reaches the network.
	Transport http.RoundTripper
	// TempDir is where downloads wait to be used ("" for os.TempDir()).
	TempDir string
}

func (o *Options) defaults() {
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Ahead <= 0 {
		o.Ahead = DefaultAhead
	}
}

// Want is an image to fetch: its source, how many uses will release it
// (its content is dropped after the last), and what an earlier import
// learned of it (nil: nothing).
type Want struct {
	Source Source
	Uses   int
	Known  *Known
}

// Known is what an earlier import learned of a URL's content. With an
// ETag or a Last-Modified date, the server is asked whether the content
// changed since; "not modified" gives an Image of this hash and size,
// without the content.
type Known struct {
	Hash           string
	Size           int64
	ETag, Modified string
}

// Image is a fetched image: its source, the name it is uploaded under,
// its sniffed type, size and SHA-256 hash (hex), and what the server said
// of it for next time (ETag, Last-Modified).
type Image struct {
	Source         Source
	Name, Type     string
	Size           int64
	Hash           string
	ETag, Modified string
	// NotModified says the server answered that the content has not
	// changed since Want.Known: Open fetches it again when it is needed.
	NotModified bool

	file string // the downloaded content; "" for a local file
	e    *entry
}

// Stats count what a Fetcher fetched.
type Stats struct {
	Downloads   int   // URLs downloaded in full
	NotModified int   // URLs whose server said they had not changed
	Local       int   // files read from the images folder
	Failed      int   // sources that could not be had
	Bytes       int64 // bytes downloaded
}

// Fetcher fetches the sources it is given once each, a few at a time, in
// the order given and at most Ahead ahead of those released. It is
// safe for use by several goroutines.
type Fetcher struct {
	o      Options
	client *http.Client
	root   *os.Root // the images folder; nil when none
	dir    string   // where downloads wait
	slots  chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	cond     *sync.Cond
	entries  map[string]*entry
	released int // entries whose every use was released
	stats    Stats
}

// entry is one source and what became of it.
type entry struct {
	want    Want
	uses    int
	started bool
	done    chan struct{}
	img     *Image
	err     error
	// full is the unconditional download of an image the server said
	// had not changed, when its content is needed after all.
	full *entry
}

// New starts fetching wants, in order, until ctx ends or Close. A source
// given twice is fetched once, its uses added up.
func New(ctx context.Context, o Options, wants []Want) (*Fetcher, error) {
	o.defaults()
	dir, err := os.MkdirTemp(o.TempDir, "lading-images-")
	if err != nil {
		return nil, fmt.Errorf("a folder for the images downloaded: %w", err)
	}
	f := &Fetcher{o: o, dir: dir, slots: make(chan struct{}, o.Concurrency), entries: map[string]*entry{}}
	f.cond = sync.NewCond(&f.mu)
	if o.Dir != "" {
		if f.root, err = os.OpenRoot(o.Dir); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("the images folder: %w", err)
		}
	}
	f.client = &http.Client{Transport: o.Transport, CheckRedirect: f.checkRedirect}
	if f.client.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = o.Concurrency
		f.client.Transport = t
	}
	f.ctx, f.cancel = context.WithCancel(ctx)
	var order []*entry
	for _, w := range wants {
		if e := f.entries[w.Source.Key]; e != nil {
			e.uses += max(w.Uses, 1)
			if w.Known == nil || e.want.Known == nil || *w.Known != *e.want.Known {
				// Uses that remember different things need the content.
				e.want.Known = nil
			}
			continue
		}
		e := &entry{want: w, uses: max(w.Uses, 1), done: make(chan struct{})}
		f.entries[w.Source.Key] = e
		order = append(order, e)
	}
	f.wg.Add(1)
	go f.prefetch(order)
	return f, nil
}

// prefetch starts the fetches of order, each once fewer than Ahead
// sources after it have been released.
func (f *Fetcher) prefetch(order []*entry) {
	defer f.wg.Done()
	for i, e := range order {
		f.mu.Lock()
		for i >= f.released+f.o.Ahead && f.ctx.Err() == nil {
			f.cond.Wait()
		}
		f.mu.Unlock()
		if f.ctx.Err() != nil {
			return
		}
		f.start(e)
	}
}

// start fetches e, unless it is started already.
func (f *Fetcher) start(e *entry) {
	f.mu.Lock()
	if e.started {
		f.mu.Unlock()
		return
	}
	e.started = true
	f.mu.Unlock()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer close(e.done)
		select {
		case f.slots <- struct{}{}:
		case <-f.ctx.Done():
			e.err = f.ctx.Err()
			return
		}
		defer func() { <-f.slots }()
		e.img, e.err = f.fetch(e.want)
		if e.img != nil {
			e.img.e = e
		}
		f.count(e)
	}()
}

func (f *Fetcher) count(e *entry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case e.err != nil:
		f.stats.Failed++
	case e.img.NotModified:
		f.stats.NotModified++
	case e.img.Source.Local():
		f.stats.Local++
	default:
		f.stats.Downloads++
		f.stats.Bytes += e.img.Size
	}
}

// Get waits for the image of source (a Key of Parse's), fetching it now
// if it was not started, and returns it or an *Error. A source not given
// to New is fetched for one use.
func (f *Fetcher) Get(ctx context.Context, s Source) (*Image, error) {
	f.mu.Lock()
	e := f.entries[s.Key]
	if e == nil {
		e = &entry{want: Want{Source: s, Uses: 1}, uses: 1, done: make(chan struct{})}
		f.entries[s.Key] = e
	}
	f.mu.Unlock()
	f.start(e)
	select {
	case <-e.done:
		return e.img, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Open opens the content of img. An image the server said had not
// changed is downloaded in full first (once).
func (f *Fetcher) Open(ctx context.Context, img *Image) (io.ReadCloser, error) {
	switch {
	case img.file != "":
		return os.Open(img.file)
	case img.Source.Local():
		return f.root.Open(img.Source.Path)
	case img.e == nil:
		return nil, fmt.Errorf("images: %s has no content", img.Source.Key)
	}
	f.mu.Lock()
	full := img.e.full
	if full == nil {
		full = &entry{want: Want{Source: img.Source, Uses: 1}, uses: 1, done: make(chan struct{})}
		img.e.full = full
	}
	f.mu.Unlock()
	f.start(full)
	select {
	case <-full.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if full.err != nil {
		return nil, full.err
	}
	if full.img.Hash != img.Hash {
		return nil, &Error{Source: img.Source.Key, Reason: "its content changed while this import read it", Temporary: true,
			Advice: "run the import again once it stays the same"}
	}
	return os.Open(full.img.file)
}

// Release gives up one use of source's image: after the last, its
// downloaded content is deleted, and a fetch not started never is.
func (f *Fetcher) Release(s Source) {
	f.mu.Lock()
	e := f.entries[s.Key]
	if e == nil || e.uses <= 0 {
		f.mu.Unlock()
		return
	}
	e.uses--
	last := e.uses == 0
	if last {
		f.released++
		f.cond.Broadcast()
	}
	if last && !e.started {
		e.started, e.err = true, errReleased
		close(e.done)
	}
	f.mu.Unlock()
	if !last {
		return
	}
	f.wg.Add(1)
	go func() {
		// A fetch under way finishes first.
		defer f.wg.Done()
		<-e.done
		f.mu.Lock()
		full := e.full
		f.mu.Unlock()
		for _, x := range []*entry{e, full} {
			if x == nil {
				continue
			}
			<-x.done
			if x.img != nil && x.img.file != "" {
				os.Remove(x.img.file)
			}
		}
	}()
}

// errReleased is what a source released before it was fetched gives.
var errReleased = errors.New("images: released before it was fetched")

// Stats counts what was fetched so far.
func (f *Fetcher) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// Close stops the fetches under way and deletes what was downloaded.
func (f *Fetcher) Close() error {
	f.cancel()
	f.mu.Lock()
	f.cond.Broadcast()
	f.mu.Unlock()
	f.wg.Wait()
	var err error
	if f.root != nil {
		err = f.root.Close()
	}
	return errors.Join(err, os.RemoveAll(f.dir))
}

// fetch fetches one source.
func (f *Fetcher) fetch(w Want) (*Image, error) {
	if w.Source.Local() {
		return f.readLocal(w.Source)
	}
	return f.download(f.ctx, w.Source, w.Known)
}

// readLocal reads a file under the images folder.
func (f *Fetcher) readLocal(s Source) (*Image, error) {
	if f.root == nil {
		return nil, &Error{Source: s.Key, Reason: "it is a path, and this import has no images folder to read it under",
			Advice: "give the folder the paths are relative to"}
	}
	fh, err := f.root.Open(s.Path)
	if err != nil {
		return nil, f.localError(s, err)
	}
	defer fh.Close()
	if st, err := fh.Stat(); err != nil {
		return nil, f.localError(s, err)
	} else if st.IsDir() {
		return nil, &Error{Source: s.Key, Reason: "it is a folder, not a file", Advice: "give the path of the image file"}
	} else if st.Size() > f.o.MaxSize {
		return nil, f.tooLarge(s, st.Size())
	}
	img, err := f.read(s, fh, io.Discard)
	if err != nil {
		return nil, err
	}
	return img, nil
}

func (f *Fetcher) localError(s Source, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Source: s.Key, Reason: "no such file in the images folder " + f.o.Dir,
			Advice: "put the file there, or give the folder the paths are relative to"}
	case errors.Is(err, fs.ErrPermission):
		return &Error{Source: s.Key, Reason: "the file cannot be read (permission denied)", Advice: "let lading read it"}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent" {
		return &Error{Source: s.Key, Reason: "the path leads out of the images folder (through a link)",
			Advice: "give a path under the images folder"}
	}
	return &Error{Source: s.Key, Reason: fmt.Sprintf("the file cannot be read (%v)", err), Advice: "check the file"}
}

// read reads an image's content from r, at most MaxSize bytes, checks
// its type and hashes it, copying it to w as it goes.
func (f *Fetcher) read(s Source, r io.Reader, w io.Writer) (*Image, error) {
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	if n == 0 {
		return nil, &Error{Source: s.Key, Reason: "it is empty", Advice: "give a file with the image in it"}
	}
	typ, ok := Sniff(head[:n])
	if !ok {
		return nil, &Error{Source: s.Key, Reason: fmt.Sprintf("its content is %s, not an image or a PDF", typ),
			Advice: "give the address of the image itself, not of a page that shows it"}
	}
	h := sha256.New()
	mw := io.MultiWriter(h, w)
	mw.Write(head[:n])
	rest, err := io.Copy(mw, io.LimitReader(r, f.o.MaxSize+1-int64(n)))
	if err != nil {
		return nil, err
	}
	size := int64(n) + rest
	if size > f.o.MaxSize {
		return nil, f.tooLarge(s, -1)
	}
	return &Image{Source: s, Name: fileName(s, typ), Type: typ, Size: size, Hash: hex.EncodeToString(h.Sum(nil))}, nil
}

// tooLarge is the error of an image over MaxSize; size is its size when
// known, else -1.
func (f *Fetcher) tooLarge(s Source, size int64) error {
	r := fmt.Sprintf("it is larger than %s, the most an image may weigh in this import", humanize.IBytes(uint64(f.o.MaxSize)))
	if size >= 0 {
		r = fmt.Sprintf("it weighs %s, more than %s, the most an image may weigh in this import",
			humanize.IBytes(uint64(size)), humanize.IBytes(uint64(f.o.MaxSize)))
	}
	return &Error{Source: s.Key, Reason: r, Advice: "make it smaller, or allow larger images"}
}
