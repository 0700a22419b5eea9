package game

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"tessera/functions/store"
)

// siteID is the store item naming the site's public origin
// (https://d123.cloudfront.net). On AWS the stack learns its CloudFront
// address only after its API functions exist (the distribution routes
// /api/* to them: naming it in their environment would be a cycle), so
// the deploy writes it here (functions/sitepub, on every create and
// update) and every function reads it for the VAPID contact: one public
// origin, never a request's Host header (docs/push.md, "Who signs").
const siteID = "site-origin"

// siteFormat is the item's first byte; the origin's bytes follow.
const siteFormat = 1

// siteRetry is how long a service that found no site item waits before
// it reads again (a function started before the deploy wrote it).
const siteRetry = 5 * time.Minute

// site caches the origin read from the store.
type site struct {
	mu     sync.Mutex
	origin string
	read   time.Time // when it was last read ("" found: read again after siteRetry)
}

// SaveSite writes the site's public origin (scheme and host, nothing
// after them) to st, to be kept for ever; writing the same origin again
// changes nothing.
func SaveSite(ctx context.Context, st store.Store, origin string, now time.Time) error {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return fmt.Errorf("game: the site's origin %q: want https:// and a host, nothing after it", origin)
	}
	state := append([]byte{siteFormat}, "https://"+u.Host...)
	for range 5 {
		item, err := st.Load(ctx, siteID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			err = st.Create(ctx, siteID, state, now, time.Time{}, time.Time{})
			if errors.Is(err, store.ErrExists) {
				continue
			}
			return err
		case err != nil:
			return err
		case string(item.State) == string(state):
			return nil
		}
		err = st.Save(ctx, siteID, state, item.Version, now, time.Time{}, time.Time{})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return err
	}
	return fmt.Errorf("game: the site's origin not written: %w", store.ErrConflict)
}

// siteOrigin is the origin SaveSite wrote, or "" when there is none (the
// local server and the Worker, which have a configured subject or their
// own address).
func (h *Service) siteOrigin(ctx context.Context) string {
	h.site.mu.Lock()
	defer h.site.mu.Unlock()
	if h.site.origin != "" || (!h.site.read.IsZero() && h.now().Sub(h.site.read) < siteRetry) {
		return h.site.origin
	}
	item, err := h.store.Load(ctx, siteID)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			h.log.Warn("push: the site's origin not read", "cause", err.Error())
			return ""
		}
	} else if len(item.State) > 1 && item.State[0] == siteFormat {
		h.site.origin = string(item.State[1:])
	}
	h.site.read = h.now()
	return h.site.origin
}
