//! Exports of Oozie applications to other schedulers: today Apache Airflow
//! (`coordc export airflow`).

pub mod airflow;
