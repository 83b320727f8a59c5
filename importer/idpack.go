package importer

import (
	"encoding/binary"
	"strconv"
	"unsafe"

	"lading/api"
	"lading/internal/arena"
)

// idPack holds ids packed in large chunks, each known by a number of 4
// bytes: a million ids cost their bytes (a decimal id, as the service's
// are, its number's: 4 or 5 bytes) and 4 MB of numbers, where a million
// LiveVariants with their ids would cost 24 MB and the ids. An id read
// back is made anew if decimal, else points into its chunk, which is
// never written again.
type idPack struct {
	chunks [][]byte
}

const (
	// packChunkBits is how many bits of a number give the place in its
	// chunk: chunks of 1 MiB, 4,096 of them at most.
	packChunkBits = 20
	packChunk     = 1 << packChunkBits
)

// add packs id and returns its number, never 0.
func (p *idPack) add(id api.ID) uint32 {
	ref, n := p.room(binary.MaxVarintLen64 + len(id))
	p.chunks[n] = appendPackedID(p.chunks[n], id)
	return ref
}

// addPacked packs the id appendPackedID packed as raw, and returns its
// number.
func (p *idPack) addPacked(raw []byte) uint32 {
	ref, n := p.room(len(raw))
	p.chunks[n] = append(p.chunks[n], raw...)
	return ref
}

// room is the number of the next id packed, of need bytes at most, and
// the chunk it goes in.
func (p *idPack) room(need int) (ref uint32, n int) {
	n = len(p.chunks) - 1
	if n < 0 || cap(p.chunks[n])-len(p.chunks[n]) < need {
		if len(p.chunks) == 1<<(32-packChunkBits)-1 { // 4 GiB of ids: memory ran out long before
			panic("importer: too many ids to pack")
		}
		// An id longer than a chunk starts a chunk of its own: a
		// number gives where an id starts, not where it ends.
		p.chunks = append(p.chunks, make([]byte, 0, max(packChunk, need)))
		n++
	}
	return uint32(n+1)<<packChunkBits | uint32(len(p.chunks[n])), n
}

// appendPackedID appends id as a pack holds it: a decimal id as its
// number (shifted, its low bit set), another as its length (shifted) and
// its text.
func appendPackedID(b []byte, id api.ID) []byte {
	if x, ok := decimalID(id); ok {
		return binary.AppendUvarint(b, x<<1|1)
	}
	b = binary.AppendUvarint(b, uint64(len(id))<<1)
	return append(b, id...)
}

// packedID splits the id appendPackedID packed at the start of b, not
// empty, from the rest of b; false when b does not start with one.
func packedID(b []byte) (raw, rest []byte, ok bool) {
	h, n := binary.Uvarint(b)
	if n <= 0 {
		return nil, nil, false
	}
	end := n
	if h&1 == 0 {
		l := h >> 1
		if l == 0 || l > uint64(len(b)-n) {
			return nil, nil, false
		}
		end += int(l)
	}
	return b[:end:end], b[end:], true
}

// decimalOf is the number of an id appendPackedID packed as raw, when
// decimal.
func decimalOf(raw []byte) (uint64, bool) {
	h, _ := binary.Uvarint(raw)
	return h >> 1, h&1 == 1
}

// decimalID is id's number when id is one written the one way a number
// is (digits, no leading zero, at most 18 of them): the service's ids
// are, and a number packs in 4 or 5 bytes where its digits take 7 to 10.
func decimalID(id api.ID) (uint64, bool) {
	if len(id) == 0 || len(id) > 18 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var x uint64
	for i := 0; i < len(id); i++ {
		d := id[i] - '0'
		if d > 9 {
			return 0, false
		}
		x = x*10 + uint64(d)
	}
	return x, true
}

// entry reads the packed id of number ref: a number (decimal), or text.
func (p *idPack) entry(ref uint32) (x uint64, text string, decimal bool) {
	c := p.chunks[ref>>packChunkBits-1][ref&(packChunk-1):]
	h, n := binary.Uvarint(c)
	if h&1 == 1 {
		return h >> 1, "", true
	}
	if h == 0 {
		return 0, "", false
	}
	return 0, unsafe.String(&c[n], int(h>>1)), false
}

// packed is the id of number ref, not 0, as appendPackedID packed it.
func (p *idPack) packed(ref uint32) []byte {
	raw, _, _ := packedID(p.chunks[ref>>packChunkBits-1][ref&(packChunk-1):])
	return raw
}

// at is the id of number ref ("" for 0).
func (p *idPack) at(ref uint32) api.ID { return p.atIn(ref, nil) }

// atIn is at, a decimal id made in a when a is not nil: ids made for a
// while (a results file's lines) in few allocations.
func (p *idPack) atIn(ref uint32, a *arena.Arena) api.ID {
	if ref == 0 {
		return ""
	}
	x, text, decimal := p.entry(ref)
	switch {
	case !decimal:
		return api.ID(text)
	case a != nil:
		return api.ID(a.Uint(x))
	}
	return api.ID(strconv.FormatUint(x, 10))
}

// is says the id of number ref is id (at(ref) == id, with nothing made).
func (p *idPack) is(ref uint32, id api.ID) bool {
	if ref == 0 {
		return id == ""
	}
	x, text, decimal := p.entry(ref)
	if !decimal {
		return api.ID(text) == id
	}
	y, ok := decimalID(id)
	return ok && x == y
}
