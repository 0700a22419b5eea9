package bolt

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	"tessera/functions/store"
)

// walk checks the shape of the page tree of the bbolt file at path by
// reading the file itself (never bbolt's mapping), before anything
// follows the tree. bbolt follows child pages recursively and trusts
// them: a damaged branch page that points back at its parent sends every
// reader (and bbolt's own Check) into a recursion that ends in a fatal
// stack overflow, which no recover can catch. walk refuses the file
// instead: every page the tree reaches must be inside the file and below
// the high-water mark, carry its own id, be a branch or leaf page whose
// elements fit inside it, and be reached exactly once.
//
// The layout it reads is bbolt's on-disk format (go.etcd.io/bbolt,
// internal/common): a 16-byte page header (id u64, flags u16, count u16,
// overflow u32), branch elements (pos u32, ksize u32, pgid u64), leaf
// elements (flags u32, pos u32, ksize u32, vsize u32), a bucket value
// (root u64, sequence u64, then the inline page when root is 0), and
// the meta page (magic, version, page size, flags, root bucket,
// freelist, high-water mark, txid, then an FNV-64a checksum of those).
func walk(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	w := &walker{f: f, size: fi.Size(), seen: map[uint64]bool{}}
	m, err := w.meta()
	if err != nil {
		return err
	}
	w.pageSize, w.hwm = int64(m.pageSize), m.hwm
	if m.root != 0 {
		return w.page(m.root, 0)
	}
	return nil
}

const (
	pageHeader   = 16
	branchElem   = 16
	leafElem     = 16
	bucketHeader = 16
	maxDepth     = 64 // far deeper than any tree a page count can build
	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagBucket   = 0x01 // a leaf element holding a bucket
)

type walker struct {
	f        *os.File
	size     int64
	pageSize int64
	hwm      uint64
	seen     map[uint64]bool
}

type metaPage struct {
	pageSize  uint32
	root, hwm uint64
	txid      uint64
	valid     bool
}

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: bbolt page tree: %s", store.ErrCorrupt, fmt.Sprintf(format, args...))
}

// meta reads both meta pages and returns the one bbolt uses: the valid one
// with the higher txid.
func (w *walker) meta() (metaPage, error) {
	var metas [2]metaPage
	// Meta page 0 is at offset 0; meta page 1 at the page size that meta 0
	// (or, if 0 is damaged, the OS) states.
	offset1 := int64(os.Getpagesize())
	for i := range 2 {
		var buf [pageHeader + 64]byte
		at := int64(0)
		if i == 1 {
			at = offset1
		}
		if _, err := w.f.ReadAt(buf[:], at); err != nil {
			continue // invalid
		}
		m := buf[pageHeader:]
		sum := fnv.New64a()
		sum.Write(m[:56])
		metas[i] = metaPage{
			pageSize: binary.LittleEndian.Uint32(m[8:]),
			root:     binary.LittleEndian.Uint64(m[16:]),
			hwm:      binary.LittleEndian.Uint64(m[40:]),
			txid:     binary.LittleEndian.Uint64(m[48:]),
			valid: binary.LittleEndian.Uint32(m[0:]) == 0xED0CDAED &&
				binary.LittleEndian.Uint32(m[4:]) == 2 &&
				binary.LittleEndian.Uint64(m[56:]) == sum.Sum64(),
		}
		if i == 0 && metas[0].valid {
			offset1 = int64(metas[0].pageSize)
		}
	}
	a, b := metas[0], metas[1]
	if b.txid > a.txid {
		a, b = b, a
	}
	for _, m := range []metaPage{a, b} {
		if !m.valid {
			continue
		}
		if m.pageSize < 1024 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0 {
			return m, damaged("meta page states a page size of %d", m.pageSize)
		}
		if m.hwm < 3 || uint64(w.size)/uint64(m.pageSize) < m.hwm {
			return m, damaged("meta page states %d pages, the file holds %d bytes", m.hwm, w.size)
		}
		if m.root != 0 && (m.root < 2 || m.root >= m.hwm) {
			return m, damaged("meta page's root page %d is outside the file's %d pages", m.root, m.hwm)
		}
		return m, nil
	}
	return metaPage{}, damaged("no valid meta page")
}

// page checks page id, reached from a parent at depth, and everything
// below it.
func (w *walker) page(id uint64, depth int) error {
	if depth > maxDepth {
		return damaged("the page tree is deeper than %d levels at page %d", maxDepth, id)
	}
	if id < 2 || id >= w.hwm {
		return damaged("page %d is outside the file's %d pages", id, w.hwm)
	}
	if w.seen[id] {
		return damaged("page %d is reached twice (the tree has a cycle or a shared page)", id)
	}
	w.seen[id] = true
	var head [pageHeader]byte
	if _, err := w.f.ReadAt(head[:], int64(id)*w.pageSize); err != nil {
		return damaged("page %d unreadable: %v", id, err)
	}
	if got := binary.LittleEndian.Uint64(head[0:]); got != id {
		return damaged("page %d carries the id %d", id, got)
	}
	overflow := uint64(binary.LittleEndian.Uint32(head[12:]))
	if id+overflow >= w.hwm {
		return damaged("page %d with %d overflow pages runs past the file's %d pages", id, overflow, w.hwm)
	}
	for o := uint64(1); o <= overflow; o++ {
		if w.seen[id+o] {
			return damaged("page %d is reached twice (an overflow of page %d)", id+o, id)
		}
		w.seen[id+o] = true
	}
	buf := make([]byte, int64(overflow+1)*w.pageSize)
	if _, err := w.f.ReadAt(buf, int64(id)*w.pageSize); err != nil && err != io.EOF {
		return damaged("page %d unreadable: %v", id, err)
	}
	return w.elements(fmt.Sprintf("page %d", id), buf, depth)
}

// elements checks the elements of one page (a file page or an inline
// bucket's page held in a value) and follows what they point at.
func (w *walker) elements(name string, p []byte, depth int) error {
	if len(p) < pageHeader {
		return damaged("%s is shorter than a page header", name)
	}
	flags := binary.LittleEndian.Uint16(p[8:])
	count := int(binary.LittleEndian.Uint16(p[10:]))
	switch flags {
	case flagBranch:
		if pageHeader+count*branchElem > len(p) {
			return damaged("%s: %d branch elements do not fit", name, count)
		}
		for i := range count {
			e := p[pageHeader+i*branchElem:]
			if err := fits(name, p, pageHeader+i*branchElem, e[0:], e[4:], nil); err != nil {
				return err
			}
			if err := w.page(binary.LittleEndian.Uint64(e[8:]), depth+1); err != nil {
				return err
			}
		}
	case flagLeaf:
		if pageHeader+count*leafElem > len(p) {
			return damaged("%s: %d leaf elements do not fit", name, count)
		}
		for i := range count {
			at := pageHeader + i*leafElem
			e := p[at:]
			if err := fits(name, p, at, e[4:], e[8:], e[12:]); err != nil {
				return err
			}
			if binary.LittleEndian.Uint32(e[0:])&flagBucket == 0 {
				continue
			}
			pos := at + int(binary.LittleEndian.Uint32(e[4:])) + int(binary.LittleEndian.Uint32(e[8:]))
			v := p[pos : pos+int(binary.LittleEndian.Uint32(e[12:]))]
			if len(v) < bucketHeader {
				return damaged("%s: a bucket value of %d bytes", name, len(v))
			}
			if depth+1 > maxDepth {
				return damaged("%s: buckets nested deeper than %d levels", name, maxDepth)
			}
			var err error
			if root := binary.LittleEndian.Uint64(v); root != 0 {
				err = w.page(root, depth+1)
			} else {
				err = w.elements(name+" (an inline bucket)", v[bucketHeader:], depth+1)
			}
			if err != nil {
				return err
			}
		}
	default:
		return damaged("%s has flags %#x, not a branch or leaf page", name, flags)
	}
	return nil
}

// fits checks that an element at offset at of page p, whose key (and
// value, when vsize is given) starts pos bytes after the element, lies
// inside the page.
func fits(name string, p []byte, at int, pos, ksize, vsize []byte) error {
	end := uint64(at) + uint64(binary.LittleEndian.Uint32(pos)) + uint64(binary.LittleEndian.Uint32(ksize))
	if vsize != nil {
		end += uint64(binary.LittleEndian.Uint32(vsize))
	}
	if end > uint64(len(p)) {
		return damaged("%s: an element at byte %d runs past the page's %d bytes", name, at, len(p))
	}
	return nil
}
