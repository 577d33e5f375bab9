-- The minute table takes the most writes of any table and no query reads one caller's minutes over a long range: its caller index only cost writes.
DROP INDEX `traffic_minute_integration_idx`;
