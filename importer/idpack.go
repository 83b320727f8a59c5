package importer

import (
	"encoding/binary"
	"unsafe"

	"lading/api"
)

// idPack holds ids packed in large chunks, each known by a number of 4
// bytes: a million ids cost their bytes and 4 MB of numbers, where a
// million LiveVariants with their ids would cost 24 MB and the ids. An id
// read back points into its chunk, which is never written again.
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
	n := len(p.chunks) - 1
	need := binary.MaxVarintLen64 + len(id)
	if n < 0 || cap(p.chunks[n])-len(p.chunks[n]) < need {
		if len(p.chunks) == 1<<(32-packChunkBits)-1 { // 4 GiB of ids: memory ran out long before
			panic("importer: too many ids to pack")
		}
		// An id longer than a chunk starts a chunk of its own: a
		// number gives where an id starts, not where it ends.
		p.chunks = append(p.chunks, make([]byte, 0, max(packChunk, need)))
		n++
	}
	c := p.chunks[n]
	ref := uint32(n+1)<<packChunkBits | uint32(len(c))
	c = binary.AppendUvarint(c, uint64(len(id)))
	p.chunks[n] = append(c, id...)
	return ref
}

// at is the id of number ref ("" for 0).
func (p *idPack) at(ref uint32) api.ID {
	if ref == 0 {
		return ""
	}
	c := p.chunks[ref>>packChunkBits-1][ref&(packChunk-1):]
	l, n := binary.Uvarint(c)
	if l == 0 {
		return ""
	}
	return api.ID(unsafe.String(&c[n], int(l)))
}
