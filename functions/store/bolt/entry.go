package bolt

import (
	"bytes"

	bbolt "go.etcd.io/bbolt"

	"tessera/functions/store"
)

// An entry in entriesBucket: list length byte, list, rank length byte,
// rank, card (the rest). Its place in listsBucket is listKey.

func encodeEntry(e store.Entry) []byte {
	b := make([]byte, 0, 2+len(e.List)+len(e.Rank)+len(e.Card))
	b = append(b, byte(len(e.List)))
	b = append(b, e.List...)
	b = append(b, byte(len(e.Rank)))
	b = append(b, e.Rank...)
	return append(b, e.Card...)
}

func decodeEntry(b []byte) (store.Entry, error) {
	if len(b) < 1 || len(b) < 1+int(b[0])+1 {
		return store.Entry{}, corrupt("entry of %d bytes", len(b))
	}
	n := int(b[0])
	e := store.Entry{List: string(b[1 : 1+n])}
	b = b[1+n:]
	r := int(b[0])
	if len(b) < 1+r {
		return store.Entry{}, corrupt("entry rank of %d bytes", r)
	}
	e.Rank = string(b[1 : 1+r])
	if card := b[1+r:]; len(card) > 0 {
		e.Card = bytes.Clone(card)
	}
	return e, nil
}

func listKey(list, rank, id string) []byte {
	k := make([]byte, 0, len(list)+len(rank)+len(id)+2)
	k = append(k, list...)
	k = append(k, 0)
	k = append(k, rank...)
	k = append(k, 0)
	return append(k, id...)
}

// entryOf reads id's entry (zero when it is in no list).
func entryOf(tx *bbolt.Tx, id string) (store.Entry, error) {
	v := tx.Bucket(entriesBucket).Get([]byte(id))
	if v == nil {
		return store.Entry{}, nil
	}
	return decodeEntry(v)
}

// putEntry sets id's entry to e (zero: none), moving its place in the
// lists.
func putEntry(tx *bbolt.Tx, id string, e store.Entry) error {
	old, err := entryOf(tx, id)
	if err != nil {
		return err
	}
	lists, entries := tx.Bucket(listsBucket), tx.Bucket(entriesBucket)
	if old.List != "" {
		if err := lists.Delete(listKey(old.List, old.Rank, id)); err != nil {
			return err
		}
	}
	if e.List == "" {
		return entries.Delete([]byte(id))
	}
	if err := lists.Put(listKey(e.List, e.Rank, id), e.Card); err != nil {
		return err
	}
	return entries.Put([]byte(id), encodeEntry(e))
}
