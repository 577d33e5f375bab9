/** Keys the alerts keep in `settings`, so they cannot collide with anyone else's. */
export type AlertSettingKey = 'alerts.meteringDroppedEvents' | 'alerts.lastRunAt';
