//! `coordc export airflow` through the real binary: the DAG files and the
//! report (reviewed snapshots, places, exit codes), and their proof with
//! Apache Airflow (`--verify`) over the corpus and random coordinators.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod differential;
mod verify;
