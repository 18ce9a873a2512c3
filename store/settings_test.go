package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

func testInitSetting(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	if _, err := s.Setting(ctx, "daily_secret"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Setting before any = %v, want ErrNotFound", err)
	}
	// Two processes (two handles on one database) and several goroutines
	// race to set it: all get the one value that won.
	other := second()
	var wg sync.WaitGroup
	got := make([]string, 8)
	errs := make([]error, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s
			if i%2 == 1 {
				st = other
			}
			got[i], errs[i] = st.InitSetting(ctx, "daily_secret", fmt.Sprintf("secret-%d", i))
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("InitSetting %d: %v", i, errs[i])
		}
		if got[i] != got[0] {
			t.Errorf("InitSetting %d = %q, but another caller got %q", i, got[i], got[0])
		}
	}
	if v, err := other.Setting(ctx, "daily_secret"); err != nil || v != got[0] {
		t.Errorf("Setting = %q, %v; want %q", v, err, got[0])
	}
	if _, err := s.InitSetting(ctx, "", "x"); !errors.Is(err, ErrInvalid) {
		t.Errorf("InitSetting with no key = %v, want ErrInvalid", err)
	}
}
