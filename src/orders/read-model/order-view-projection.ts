// The projection lives in projections/order-view.ts; this path stays only for the stores that still import
// it here, and goes once they import projections/ directly. Nothing new imports this file.
export * from '../../../projections/order-view.js';
