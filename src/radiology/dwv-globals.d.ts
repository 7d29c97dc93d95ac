/** Where the build put dwv's decoder workers (vite.config.ts dwvWorkers): `/dwv/<version>/`. */
declare const __DWV_WORKERS__: string;
